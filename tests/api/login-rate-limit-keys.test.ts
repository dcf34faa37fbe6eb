import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "10" });
});
afterAll(() => t.close());

const attempt = (username: string, remoteAddress: string, password = "guess-password") =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password }, remoteAddress });

let v4Counter = 1;
const freshV4 = () => `10.40.${Math.floor(v4Counter / 250)}.${(v4Counter++ % 250) + 1}`;
const unknownName = () => `nobody_${randomBytes(4).toString("hex")}`;

async function registeredAccount() {
  const tag = randomBytes(4).toString("hex");
  const account = { username: `sipho_${tag}`, email: `sipho.${tag}@example.co.za`, password: `dry-night-${tag}` };
  const response = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { ...account, fullName: "Sipho Ndlovu" },
    remoteAddress: freshV4(),
  });
  expect(response.statusCode).toBe(201);
  return account;
}

describe("the per-account login budget belongs to the account, however it is named", () => {
  it("refuses an attempt by e-mail once 10 were made by username", async () => {
    const account = await registeredAccount();
    for (let i = 0; i < 10; i++) expect((await attempt(account.username, freshV4())).statusCode).toBe(401);
    expect((await attempt(account.email, freshV4())).statusCode).toBe(429);
    expect((await attempt(account.email.toUpperCase(), freshV4(), account.password)).statusCode).toBe(429);
  });

  it("refuses an attempt by username once 10 were made by e-mail, mixing cases", async () => {
    const account = await registeredAccount();
    for (let i = 0; i < 10; i++) {
      const name = i % 2 === 0 ? account.email : account.email.toUpperCase();
      expect((await attempt(name, freshV4())).statusCode).toBe(401);
    }
    expect((await attempt(account.username.toUpperCase(), freshV4())).statusCode).toBe(429);
  });

  it("limits a name no account has just the same, so the limit does not tell who exists", async () => {
    const name = unknownName();
    for (let i = 0; i < 10; i++) expect((await attempt(name, freshV4())).statusCode).toBe(401);
    expect((await attempt(name.toUpperCase(), freshV4())).statusCode).toBe(429);
  });
});

describe("the per-address login budget", () => {
  it("is shared by every address of one IPv6 /64", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await attempt(unknownName(), `2001:db8:aa:1::${(i + 1).toString(16)}`)).statusCode).toBe(401);
    }
    expect((await attempt(unknownName(), "2001:db8:aa:1:dead:beef:0:1")).statusCode).toBe(429);
    expect((await attempt(unknownName(), "2001:0db8:00aa:0001::ffff")).statusCode).toBe(429);
  });

  it("is not shared between two /64s", async () => {
    for (let i = 0; i < 10; i++) await attempt(unknownName(), `2001:db8:bb:1::${i + 1}`);
    expect((await attempt(unknownName(), "2001:db8:bb:1::99")).statusCode).toBe(429);
    expect((await attempt(unknownName(), "2001:db8:bb:2::1")).statusCode).toBe(401);
  });

  it("is per address for IPv4, and an IPv4-mapped IPv6 address is that IPv4 address", async () => {
    for (let i = 0; i < 10; i++) await attempt(unknownName(), "10.41.0.1");
    expect((await attempt(unknownName(), "::ffff:10.41.0.1")).statusCode).toBe(429);
    expect((await attempt(unknownName(), "10.41.0.2")).statusCode).toBe(401);
  });
});
