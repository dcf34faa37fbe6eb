import { randomBytes } from "node:crypto";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubjectSource } from "#server/mail/subjects.js";
import { clientNetwork } from "#server/platform/client-network.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { withSubjects } from "../helpers/outbox.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "10", LOGIN_FAILURES_PER_ACCOUNT: "10" });
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

/** `count` wrong passwords for `name`, each from a network of its own; all answered 401. */
async function failFromManyNetworks(name: string, count: number) {
  for (let i = 0; i < count; i++) expect((await attempt(name, freshV4())).statusCode).toBe(401);
}

describe("wrong passwords count against the account, however it is named (decision 042)", () => {
  it("shuts a network out once the account has had 10 failures and it gave 3 of them, by username or e-mail", async () => {
    const account = await registeredAccount();
    const failing = freshV4();
    for (let i = 0; i < 3; i++) expect((await attempt(account.username, failing)).statusCode).toBe(401);
    await failFromManyNetworks(account.email, 6);
    // 9 failures: the account is not under attack yet, so the failing network is still answered.
    expect((await attempt(account.email.toUpperCase(), failing)).statusCode).toBe(401);
    // That was the 10th: now the network that gave 4 of them is refused, even with the right password.
    const refused = await attempt(account.email.toUpperCase(), failing, account.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/wrong passwords .* from your network/),
      code: "RATE_LIMITED",
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(60);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(15 * 60);
    // Any other network is answered on its password: the owner gets in.
    expect((await attempt(account.username.toUpperCase(), freshV4(), account.password)).statusCode).toBe(200);
  });

  it("answers a network with 2 failures against an account under attack, and shuts it at its 3rd", async () => {
    const account = await registeredAccount();
    await failFromManyNetworks(account.username, 10);
    const network = freshV4();
    expect((await attempt(account.username, network)).statusCode).toBe(401);
    expect((await attempt(account.username, network)).statusCode).toBe(401);
    expect((await attempt(account.username, network)).statusCode).toBe(401);
    expect((await attempt(account.username, network, account.password)).statusCode).toBe(429);
  });

  it("treats a name no account has just the same, so the limit does not tell who exists", async () => {
    const name = unknownName();
    const failing = freshV4();
    for (let i = 0; i < 3; i++) expect((await attempt(name, failing)).statusCode).toBe(401);
    await failFromManyNetworks(name, 7);
    expect((await attempt(name.toUpperCase(), failing)).statusCode).toBe(429);
    expect((await attempt(name.toUpperCase(), freshV4())).statusCode).toBe(401);
  });

  it("leaves the owner able to log in from another network after 50 wrong logins from one (issue 39)", async () => {
    const account = await registeredAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      statuses.push((await attempt(i % 2 === 0 ? account.username : account.email, "2001:db8:39:1::7")).statusCode);
    }
    // The network's own budget: 10 attempts a minute, then 429 (before issue 39 the account's was spent too).
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    // Another address of the same /64 is the same network.
    expect((await attempt(account.username, "2001:db8:39:1::8", account.password)).statusCode).toBe(429);
    const owner = await attempt(account.username, "2001:db8:39:2::1", account.password);
    expect(owner.statusCode).toBe(200);
  });

  it("lets the owner in after 50 wrong logins spread over 50 networks, each answered on its password", async () => {
    const account = await registeredAccount();
    await failFromManyNetworks(account.username, 50);
    expect((await attempt(account.username, freshV4(), account.password)).statusCode).toBe(200);
  });
});

describe("the account holder is told about repeated wrong passwords", () => {
  const notices = async (email: string) =>
    withSubjects(
      t,
      (
        await t.pool.query<SubjectSource>(
          "select kind, subject, data from emails where kind = 'login_failures' and to_address = $1",
          [email],
        )
      ).rows,
    ).map(({ subject, data }) => ({ subject, data }));

  it("mails nothing at 9 failures, one message at the 10th, and no more that day however many follow", async () => {
    const account = await registeredAccount();
    await failFromManyNetworks(account.username, 9);
    expect(await notices(account.email)).toEqual([]);
    await failFromManyNetworks(account.username, 1);
    expect(await notices(account.email)).toEqual([
      {
        subject: expect.stringMatching(/wrong passwords on your .* account/),
        data: expect.objectContaining({ failures: 10, windowMinutes: 15 }),
      },
    ]);
    await failFromManyNetworks(account.username, 15);
    // A new 15-minute window that reaches the limit again, the same day: still the one message.
    await t.pool.query("update rate_limits set reset_at = now() - interval '1 second' where key like 'login-failed:%'");
    await failFromManyNetworks(account.email, 10);
    expect(await notices(account.email)).toHaveLength(1);
  });

  it("mails nobody for a name no account has", async () => {
    const name = `${unknownName()}@example.co.za`;
    await failFromManyNetworks(name, 10);
    expect(await notices(name)).toEqual([]);
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

describe("50 wrong logins from one network leave the owner's other password checks working from another (issue 39)", () => {
  const home = "2001:db8:77:1::1";
  let strangers = 0;

  /** Registers, signs in from `home`, then lets a stranger's network try 50 wrong passwords. */
  async function signedInAndAttacked({ admin = false } = {}) {
    const account = await registeredAccount();
    const [row] = (
      await t.pool.query<{ id: string }>(
        `update users set is_admin = ${admin} where lower(username) = lower($1) returning id`,
        [account.username],
      )
    ).rows;
    const login = await attempt(account.username, home, account.password);
    expect(login.statusCode).toBe(200);
    const sid = login.cookies.find((cookie) => cookie.name === t.app.config.session.cookieName);
    const headers = { cookie: `${sid?.name}=${sid?.value}`, "x-user-id": row?.id ?? "" };
    // A network of its own for each test, so its 10 attempts a minute do reach the password check.
    const stranger = `2001:db8:66:${++strangers}::1`;
    for (let i = 0; i < 50; i++) await attempt(i % 2 ? account.email : account.username, stranger);
    const [failures] = (
      await t.pool.query<{ count: number }>("select count from rate_limits where key = $1", [
        `login-failed:user:${row?.id}`,
      ])
    ).rows;
    expect(failures?.count).toBe(10);
    return { ...account, id: row?.id ?? "", headers, stranger };
  }

  const post = (url: string, headers: Record<string, string>, payload: object, remoteAddress = home) =>
    t.app.inject({ method: "POST", url, headers, payload, remoteAddress });

  it("changes the password", async () => {
    const owner = await signedInAndAttacked();
    const changed = await post("/api/auth/change-password", owner.headers, {
      currentPassword: owner.password,
      newPassword: `quiet night nappy ${randomBytes(4).toString("hex")}`,
    });
    expect(changed.statusCode).toBe(200);
  });

  it("asks for an e-mail change", async () => {
    const owner = await signedInAndAttacked();
    const asked = await t.app.inject({
      method: "PUT",
      url: `/api/users/${owner.id}`,
      headers: owner.headers,
      payload: {
        fullName: "Sipho Ndlovu",
        email: `new.${owner.email}`,
        phone: "082 555 0101",
        address: "12 Jacaranda Street",
        city: "Pretoria",
        zipCode: "0181",
        currentPassword: owner.password,
      },
      remoteAddress: home,
    });
    expect(asked.statusCode).toBe(200);
  });

  it("downloads the data export, then closes the account", async () => {
    const owner = await signedInAndAttacked();
    expect((await post("/api/account/data-export", owner.headers, { password: owner.password })).statusCode).toBe(200);
    expect((await post("/api/account/close", owner.headers, { password: owner.password })).statusCode).toBe(200);
  });

  it("gives an admin's step-up code", async () => {
    const owner = await signedInAndAttacked({ admin: true });
    const setup = await post("/api/auth/2fa/setup", owner.headers, {});
    const { secret } = setup.json() as { secret: string };
    const code = () => generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await post("/api/auth/2fa/enable", owner.headers, { code: await code() })).statusCode).toBe(200);
    // The next step's code: each step is taken once.
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect((await post("/api/auth/2fa/verify", owner.headers, { code: next })).statusCode).toBe(204);
  });

  it("still refuses the stranger's network, right password or not", async () => {
    const owner = await signedInAndAttacked();
    expect((await attempt(owner.username, owner.stranger, owner.password)).statusCode).toBe(429);
    // Once its minute is over too: the account's failures keep it out for their 15 minutes.
    const aged = await t.pool.query("update rate_limits set reset_at = now() - interval '1 second' where key = $1", [
      `login:ip:${clientNetwork(owner.stranger)}`,
    ]);
    expect(aged.rowCount).toBe(1);
    expect((await attempt(owner.username, owner.stranger, owner.password)).statusCode).toBe(429);
  });
});
