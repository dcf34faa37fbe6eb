import { describe, expect, it } from "vitest";
import type { Config } from "../config.js";
import { loadConfig } from "../config.js";
import { apiSignature, parseHistory, payfastApiClient, payfastTimestamp, sastDate } from "./api-client.js";
import { emulatedApiSignature } from "./emulator-api-signature.js";

/**
 * Vectors worked by hand from PayFast's API documentation (docs/payfast.md §7, "PayFast's API"): the
 * header values, the query or body values and the passphrase, sorted alphabetically, each
 * `key=urlencode(value)`, joined with `&`, MD5. The parameter strings are spelled out here and
 * their MD5 computed outside our code (`printf '%s' '<string>' | md5sum`).
 */
const headers = { "merchant-id": "10000100", version: "v1", timestamp: "2026-01-05T12:00:01+02:00" };
const passphrase = "jt7NOE43FZPn";

describe("PayFast API signature", () => {
  it.each([
    {
      name: "a ping: the headers alone",
      fields: headers,
      string: "merchant-id=10000100&passphrase=jt7NOE43FZPn&timestamp=2026-01-05T12%3A00%3A01%2B02%3A00&version=v1",
      md5: "a4093c75c4f47017b32985a470c0689b",
    },
    {
      name: "the transaction history: query values sorted in among the headers",
      fields: { ...headers, to: "2026-01-05", from: "2026-01-01" },
      string:
        "from=2026-01-01&merchant-id=10000100&passphrase=jt7NOE43FZPn&timestamp=2026-01-05T12%3A00%3A01%2B02%3A00&to=2026-01-05&version=v1",
      md5: "3f89d25d19ec9f98d95db7a2a71cb2e2",
    },
    {
      name: "a refund: body values with spaces and brackets encoded as PHP's urlencode does",
      fields: { ...headers, amount: "5000", reason: "Damaged pack (size 3)", notify_buyer: "1" },
      string:
        "amount=5000&merchant-id=10000100&notify_buyer=1&passphrase=jt7NOE43FZPn&reason=Damaged+pack+%28size+3%29&timestamp=2026-01-05T12%3A00%3A01%2B02%3A00&version=v1",
      md5: "d2a484959c7ed3d3f12198ffe3146e70",
    },
  ])("signs $name", ({ fields, md5 }) => {
    expect(apiSignature(fields, passphrase)).toBe(md5);
  });

  /*
   * A zero (the refund's notify_buyer=0). PayFast documents the API signature in two ways
   * (developers.payfast.co.za/api, "Signature Generation"): its steps say to join "all the
   * non-empty, sorted variables", and PHP's empty("0") is true; its code sample builds the string
   * with http_build_query, which keeps notify_buyer=0, as its SDK (Auth::generateApiSignature)
   * does. Both strings are written out by hand from those texts; their MD5s come from md5sum.
   */
  const refundWithZero = { ...headers, amount: "5000", reason: "Damaged pack (size 3)", notify_buyer: "0" };
  const ZERO_SIGNED = {
    string:
      "amount=5000&merchant-id=10000100&notify_buyer=0&passphrase=jt7NOE43FZPn&reason=Damaged+pack+%28size+3%29&timestamp=2026-01-05T12%3A00%3A01%2B02%3A00&version=v1",
    md5: "a09c3d3284e40c57f28c746e16140898",
  };
  const ZERO_LEFT_OUT = {
    string:
      "amount=5000&merchant-id=10000100&passphrase=jt7NOE43FZPn&reason=Damaged+pack+%28size+3%29&timestamp=2026-01-05T12%3A00%3A01%2B02%3A00&version=v1",
    md5: "88ba27f0ccb99af4c3a62303d0ae624a",
  };

  it("signs notify_buyer=0 as PayFast's documented code does (http_build_query keeps it)", () => {
    expect(apiSignature(refundWithZero, passphrase)).toBe(ZERO_SIGNED.md5);
    expect(apiSignature(refundWithZero, passphrase, "signed")).toBe(ZERO_SIGNED.md5);
  });

  it("signs notify_buyer=0 as the documentation's prose reads (a non-empty value only), when PayFast wants that", () => {
    expect(apiSignature(refundWithZero, passphrase, "left_out")).toBe(ZERO_LEFT_OUT.md5);
  });

  it("is checked by the emulator with its own implementation, which agrees on every vector", () => {
    expect(emulatedApiSignature(refundWithZero, passphrase, "signed")).toBe(ZERO_SIGNED.md5);
    expect(emulatedApiSignature(refundWithZero, passphrase, "left_out")).toBe(ZERO_LEFT_OUT.md5);
    expect(emulatedApiSignature(headers, passphrase, "signed")).toBe("a4093c75c4f47017b32985a470c0689b");
    expect(
      emulatedApiSignature(
        { ...headers, amount: "5000", reason: "Damaged pack (size 3)", notify_buyer: "1" },
        passphrase,
        "signed",
      ),
    ).toBe("d2a484959c7ed3d3f12198ffe3146e70");
    // PHP's urlencode, not encodeURIComponent: ! ' ( ) * ~ encoded, a space as +.
    const odd = { ...headers, reason: "It's (very) *odd*! ~ok" };
    expect(emulatedApiSignature(odd, passphrase, "signed")).toBe(apiSignature(odd, passphrase));
  });

  it("leaves out the sandbox's testing flag and any signature already present", () => {
    expect(apiSignature({ ...headers, testing: "true", signature: "x" }, passphrase)).toBe(
      "a4093c75c4f47017b32985a470c0689b",
    );
  });

  it("changes with the passphrase", () => {
    expect(apiSignature(headers, "another")).not.toBe("a4093c75c4f47017b32985a470c0689b");
  });
});

describe("PayFast timestamps and days", () => {
  it.each([
    ["2026-01-05T10:00:01.000Z", "2026-01-05T12:00:01+02:00", "2026-01-05"],
    ["2026-01-05T22:30:00.000Z", "2026-01-06T00:30:00+02:00", "2026-01-06"],
  ])("writes %s as %s in South African time", (utc, timestamp, day) => {
    expect(payfastTimestamp(new Date(utc))).toBe(timestamp);
    expect(sastDate(new Date(utc))).toBe(day);
  });
});

const DOCS_HEADER =
  '"Date","Type","Sign","Party","Name","Description","Currency","Funding Type","Gross","Fee","Net","Balance","M Payment ID","PF Payment ID","custom str1","custom int1","custom str2","custom int2","custom str3","custom str4","custom str5","custom int3","custom int4","custom int5"';

describe("PayFast transaction history", () => {
  it("reads the documented CSV, quoted thousands included", () => {
    const csv = [
      DOCS_HEADER,
      '"2020-02-27 13:29:55",FUNDS_RECEIVED,CREDIT,"Test User 01",test,,ZAR,CC,500.00,-24.73,475.27,"22,574.02",4f1b6a1e-0000-4000-8000-000000000001,994209,,,,,,,,,,',
      '"2020-02-27 13:30:13",FUNDS_RECEIVED,CREDIT,"Test User 01","Order, with a comma",,ZAR,CC,"2,800.00",-6.79,93.21,"22,667.23",,994210,,,,,,,,,,',
    ].join("\n");
    expect(parseHistory(csv)).toEqual([
      {
        type: "FUNDS_RECEIVED",
        sign: "CREDIT",
        mPaymentId: "4f1b6a1e-0000-4000-8000-000000000001",
        pfPaymentId: "994209",
        grossCents: 50_000,
        gross: "500.00",
      },
      {
        type: "FUNDS_RECEIVED",
        sign: "CREDIT",
        mPaymentId: "",
        pfPaymentId: "994210",
        grossCents: 280_000,
        gross: "2,800.00",
      },
    ]);
  });

  it("reads the CSV wrapped in JSON, as some integrations see it", () => {
    const csv = `${DOCS_HEADER}\n"2020-02-27 13:29:55",FUNDS_RECEIVED,CREDIT,x,y,,ZAR,CC,-15.00,0,0,0,abc,1,,,,,,,,,,`;
    const [row] = parseHistory(JSON.stringify({ response: csv }));
    expect(row).toMatchObject({ mPaymentId: "abc", grossCents: -1_500 });
  });

  it("reads a history with no transactions", () => {
    expect(parseHistory(`${DOCS_HEADER}\n`)).toEqual([]);
  });

  it.each([
    [
      "an error body",
      '{"code":401,"status":"failed","data":{"response":"Merchant authorisation failed.","message":false}}',
    ],
    ["an empty answer", ""],
    ["some other CSV", "a,b\n1,2\n"],
  ])("refuses %s rather than read it as no payments", (_name, body) => {
    expect(() => parseHistory(body)).toThrow();
  });
});

describe("the API client", () => {
  const config: Config = loadConfig({ NODE_ENV: "test", PUBLIC_URL: "http://localhost:3000" });

  it("names the shop and its version in its User-Agent, never Node's default", async () => {
    const seen: Headers[] = [];
    const api = payfastApiClient(config, {
      fetch: async (_url, init) => {
        seen.push(new Headers(init?.headers));
        return new Response(JSON.stringify("API V1"), { status: 200 });
      },
    });
    await api.ping();
    expect(seen[0]?.get("user-agent")).toMatch(/^Snug-and-Dry\/\d+\.\d+\.\d+ \(\+http:\/\/localhost:3000\)$/);
  });

  it("asks once more with the other reading of a zero after a 401, and keeps the one PayFast took", async () => {
    const signatures: string[] = [];
    // A PayFast that leaves zeros out: only that signature is accepted.
    const api = payfastApiClient(config, {
      now: () => new Date("2026-01-05T10:00:01Z"),
      fetch: async (_url, init) => {
        const sent = new Headers(init?.headers);
        signatures.push(sent.get("signature") ?? "");
        const body = JSON.parse(String(init?.body)) as Record<string, string | number>;
        const fields = {
          "merchant-id": sent.get("merchant-id") ?? "",
          version: sent.get("version") ?? "",
          timestamp: sent.get("timestamp") ?? "",
          ...Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value)])),
        };
        const ok = sent.get("signature") === emulatedApiSignature(fields, config.payfast.passphrase ?? "", "left_out");
        return ok
          ? new Response(JSON.stringify({ code: 200, status: "success", data: { response: true } }), { status: 200 })
          : new Response(
              JSON.stringify({ code: 401, status: "failed", data: { response: "Merchant authorisation failed." } }),
              {
                status: 401,
              },
            );
      },
    });
    expect(await api.createRefund("1234567", { amountCents: 5000, reason: "Damaged pack" })).toEqual({ ok: true });
    expect(signatures).toHaveLength(2);
    expect(await api.createRefund("1234567", { amountCents: 100, reason: "Late again" })).toEqual({ ok: true });
    expect(signatures).toHaveLength(3);
  });

  it("does not ask twice when nothing in the call is a zero: a 401 is then a real refusal", async () => {
    let calls = 0;
    const api = payfastApiClient(config, {
      fetch: async () => {
        calls += 1;
        return new Response("{}", { status: 401 });
      },
    });
    await expect(api.ping()).rejects.toThrow(/answered 401/);
    expect(calls).toBe(1);
  });
});
