import { describe, expect, it } from "vitest";
import type { Config } from "../platform/config.js";
import { loadConfig } from "../platform/config.js";
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

describe("the API client's second reading of a zero", () => {
  const config: Config = loadConfig({ NODE_ENV: "test", PUBLIC_URL: "http://localhost:3000" });
  const AUTH_FAILED = JSON.stringify({
    code: 401,
    status: "failed",
    data: { response: "Merchant authorisation failed.", message: false },
  });
  /** A PayFast that answers each call with the next of `answers`, recording the signatures it was sent. */
  function scripted(answers: [number, string][]) {
    const signatures: string[] = [];
    const api = payfastApiClient(config, {
      now: () => new Date("2026-01-05T10:00:01Z"),
      fetch: async (_url, init) => {
        signatures.push(new Headers(init?.headers).get("signature") ?? "");
        const [status, body] = answers.shift() ?? [
          200,
          JSON.stringify({ code: 200, status: "success", data: { response: true } }),
        ];
        return new Response(body, { status });
      },
    });
    return { api, signatures };
  }
  const refund = { amountCents: 5000, reason: "Damaged pack" };

  it.each([
    ["a 404", 404, JSON.stringify({ code: 404, status: "failed", data: { response: false, message: "Not found" } })],
    ["a 429", 429, JSON.stringify({ code: 429, status: "failed", data: { response: "Signature rate limit reached" } })],
    ["another 401", 401, AUTH_FAILED],
  ])("keeps its reading when the second try answers %s", async (_name, status, body) => {
    const { api, signatures } = scripted([
      [401, AUTH_FAILED],
      [status, body],
    ]);
    await api.createRefund("1234567", refund).catch(() => undefined);
    expect(signatures).toHaveLength(2);
    expect(signatures[1]).not.toBe(signatures[0]);
    await api.createRefund("1234567", refund);
    expect(signatures[2]).toBe(signatures[0]);
  });

  it("adopts the other reading once the second try answers 2xx", async () => {
    const { api, signatures } = scripted([[401, AUTH_FAILED]]);
    expect(await api.createRefund("1234567", refund)).toEqual({ ok: true });
    await api.createRefund("1234567", refund);
    expect(signatures[2]).toBe(signatures[1]);
  });

  it("does not ask again after a 401 that is not about the signature, and keeps PayFast's words", async () => {
    const origin = JSON.stringify({ code: 401, status: "failed", data: { response: "Origin could not be verified" } });
    const { api, signatures } = scripted([[401, origin]]);
    await expect(api.createRefund("1234567", refund)).rejects.toThrow(/Origin could not be verified/);
    expect(signatures).toHaveLength(1);
  });

  it("keeps PayFast's own 401 text in a GET's error", async () => {
    const { api } = scripted([[401, AUTH_FAILED]]);
    await expect(api.ping()).rejects.toThrow("GET /ping answered 401: Merchant authorisation failed.");
  });

  it("sends no offset=0 on the history's first page, and the offset on the next", async () => {
    const urls: URL[] = [];
    const header =
      '"Date","Type","Sign","Party","Name","Description","Currency","Funding Type","Gross","Fee","Net","Balance","M Payment ID","PF Payment ID"';
    const row = '"2026-01-05 10:00:00",FUNDS_RECEIVED,CREDIT,x,y,,ZAR,CC,10.00,0,10.00,0,m,1';
    let call = 0;
    const api = payfastApiClient(config, {
      fetch: async (url) => {
        urls.push(new URL(String(url)));
        call += 1;
        const rows = call === 1 ? Array.from({ length: 1000 }, () => row) : [row];
        return new Response([header, ...rows].join("\n"), { status: 200 });
      },
    });
    expect(await api.transactionHistory("2026-01-01", "2026-01-05")).toHaveLength(1001);
    expect(urls[0]?.searchParams.has("offset")).toBe(false);
    expect(urls[0]?.searchParams.get("limit")).toBe("1000");
    expect(urls[1]?.searchParams.get("offset")).toBe("1000");
  });
});

describe("charging a card token (ad hoc)", () => {
  const config: Config = loadConfig({ NODE_ENV: "test", PUBLIC_URL: "http://localhost:3000" });
  const TOKEN = "dc0521d3-55fe-269b-fa00-b647310d760f";
  const charge = { amountCents: 57_900, itemName: "Nappy plan box 2", mPaymentId: "plan-charge-1" };

  function answering(answer: () => Response | Promise<Response>) {
    const sent: { url: URL; init: RequestInit | undefined }[] = [];
    const api = payfastApiClient(config, {
      fetch: async (url, init) => {
        sent.push({ url: new URL(String(url)), init });
        return answer();
      },
    });
    return { api, sent };
  }
  const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status });

  it.each([
    [
      "the sandbox's boolean true",
      json(200, {
        code: 200,
        status: "success",
        data: { response: true, message: "Transaction was successful(00)", pf_payment_id: "1124148" },
      }),
      { kind: "paid", pfPaymentId: "1124148", message: "Transaction was successful(00)" },
    ],
    [
      'live\'s string "true", without a pf_payment_id',
      json(200, {
        code: 200,
        status: "success",
        data: { response: "true", message: "Transaction was successful (00)" },
      }),
      { kind: "paid", pfPaymentId: "", message: "Transaction was successful (00)" },
    ],
    [
      "a decline, which is also a 200 success",
      json(200, { code: 200, status: "success", data: { response: "05", message: "Your card was not accepted (05)" } }),
      { kind: "declined", code: "05", message: "Your card was not accepted (05)" },
    ],
    [
      "a token on hold or cancelled",
      json(400, {
        code: 400,
        status: "failed",
        data: { response: 4, message: "The subscription is not in a valid state." },
      }),
      { kind: "not_valid_state", message: "The subscription is not in a valid state." },
    ],
  ])("reads %s", async (_name, answer, outcome) => {
    const { api, sent } = answering(answer);
    expect(await api.chargeToken(TOKEN, charge)).toEqual(outcome);
    expect(sent[0]?.init?.method).toBe("POST");
    expect(sent[0]?.url.pathname).toBe(`/payfast-emulator/api/subscriptions/${TOKEN}/adhoc`);
    expect(JSON.parse(String(sent[0]?.init?.body))).toEqual({
      amount: 57_900,
      item_name: "Nappy plan box 2",
      m_payment_id: "plan-charge-1",
    });
  });

  it.each([
    ["a 500", json(500, { code: 500, status: "error", data: { response: false } })],
    ["a 503 page", () => new Response("<html>Service Unavailable</html>", { status: 503 })],
    ["a 401", json(401, { code: 401, status: "failed", data: { response: "Merchant authorisation failed." } })],
    ["a 429", json(429, { code: 429, status: "failed", data: { response: "Signature rate limit reached" } })],
    ["a 200 that is not JSON", () => new Response("OK", { status: 200 })],
    ["a 200 with a false response", json(200, { code: 200, status: "failed", data: { response: false } })],
    [
      "a timeout",
      () => {
        throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
      },
    ],
  ])("calls %s an unknown outcome, never a decline", async (_name, answer) => {
    const { api, sent } = answering(answer);
    const outcome = await api.chargeToken(TOKEN, charge);
    expect(outcome.kind).toBe("unknown");
    expect(sent).toHaveLength(1);
  });
});

describe("managing a card token", () => {
  const config: Config = loadConfig({ NODE_ENV: "test", PUBLIC_URL: "http://localhost:3000" });
  const TOKEN = "dc0521d3-55fe-269b-fa00-b647310d760f";
  const ok = JSON.stringify({ code: 200, status: "success", data: { response: true } });
  const fetched = (statusText: string) =>
    JSON.stringify({
      code: 200,
      status: "success",
      data: { response: { token: TOKEN, status: 1, status_text: statusText } },
    });

  function scripted(answers: [number, string][]) {
    const sent: { method: string; path: string; body: unknown }[] = [];
    const api = payfastApiClient(config, {
      fetch: async (url, init) => {
        const sentBody = init?.body instanceof Uint8Array ? `${init.body.byteLength} bytes` : init?.body;
        sent.push({ method: init?.method ?? "GET", path: new URL(String(url)).pathname, body: sentBody });
        const [status, answer] = answers.shift() ?? [500, "{}"];
        return new Response(answer, { status });
      },
    });
    return { api, sent };
  }

  it.each([
    ["ACTIVE", "active"],
    ["Paused", "paused"],
    ["CANCELLED", "cancelled"],
    ["COMPLETE", "other"],
  ])("reads a fetched status %s as %s", async (statusText, status) => {
    const { api, sent } = scripted([[200, fetched(statusText)]]);
    expect(await api.fetchSubscription(TOKEN)).toMatchObject({ token: TOKEN, status, statusText });
    expect(sent[0]).toMatchObject({ method: "GET", path: `/payfast-emulator/api/subscriptions/${TOKEN}/fetch` });
  });

  it("throws when PayFast does not know the token", async () => {
    const { api } = scripted([
      [404, JSON.stringify({ code: 404, status: "failed", data: { response: "Subscription not found" } })],
    ]);
    await expect(api.fetchSubscription(TOKEN)).rejects.toThrow(/404: Subscription not found/);
  });

  it("cancels with a PUT whose empty body says Content-Length: 0", async () => {
    const { api, sent } = scripted([[200, ok]]);
    expect(await api.cancelSubscription(TOKEN)).toBe("cancelled");
    expect(sent[0]).toEqual({
      method: "PUT",
      path: `/payfast-emulator/api/subscriptions/${TOKEN}/cancel`,
      body: "0 bytes",
    });
  });

  it("says already_cancelled when PayFast refuses because the token is cancelled, and throws otherwise", async () => {
    const invalid = JSON.stringify({
      code: 400,
      status: "failed",
      data: { response: 4, message: "The subscription is not in a valid state." },
    });
    const { api } = scripted([
      [400, invalid],
      [200, fetched("CANCELLED")],
      [400, invalid],
      [200, fetched("ACTIVE")],
      [500, "{}"],
    ]);
    expect(await api.cancelSubscription(TOKEN)).toBe("already_cancelled");
    await expect(api.cancelSubscription(TOKEN)).rejects.toThrow(/not in a valid state/);
    await expect(api.cancelSubscription(TOKEN)).rejects.toThrow(/answered 500/);
  });

  it("pauses and unpauses with PUTs, and throws when PayFast did not", async () => {
    const { api, sent } = scripted([
      [200, ok],
      [200, ok],
      [
        400,
        JSON.stringify({
          code: 400,
          status: "failed",
          data: { response: 4, message: "The subscription is not in a valid state." },
        }),
      ],
    ]);
    await api.pauseSubscription(TOKEN);
    await api.unpauseSubscription(TOKEN);
    await expect(api.unpauseSubscription(TOKEN)).rejects.toThrow(/not in a valid state/);
    expect(sent.map((call) => `${call.method} ${call.path.split("/").at(-1)} ${JSON.stringify(call.body)}`)).toEqual([
      'PUT pause "0 bytes"',
      'PUT unpause "0 bytes"',
      'PUT unpause "0 bytes"',
    ]);
  });
});
