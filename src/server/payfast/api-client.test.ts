import { describe, expect, it } from "vitest";
import { apiSignature, parseHistory, payfastTimestamp, sastDate } from "./api-client.js";

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
