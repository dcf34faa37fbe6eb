import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { call, sessionCookie } from "./helpers/http.js";
import {
  adminQuery,
  createFreshDatabase,
  externalPostgres,
  startTestCluster,
  withClient,
  withDatabase,
} from "./helpers/postgres.js";
import { tag } from "./helpers/shop.js";

/**
 * Two app processes, each on its own port, over one PostgreSQL and behind no proxy (the
 * external one at 127.0.0.1:5432 when it answers, else a cluster of the test's own): sessions,
 * catalogue changes and login rate limits are shared through the database.
 */

let a: AppProcess;
let b: AppProcess;
let databaseUrl = "";
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const external = await externalPostgres();
  if (external) {
    const database = await createFreshDatabase(external);
    cleanups.push(database.drop);
    databaseUrl = database.url;
  } else {
    const cluster = await startTestCluster();
    cleanups.push(cluster.dispose);
    await adminQuery(cluster.adminUrl, "create database shop");
    databaseUrl = withDatabase(cluster.adminUrl, "shop");
  }
  // Both start at once on the empty database: migrations and the seed run once, under locks.
  // Each client says who it is with X-Forwarded-For (from loopback only), so each scenario has its own rate-limit counts.
  const env = { DATABASE_URL: databaseUrl, TRUST_PROXY: "127.0.0.1", ...ORDER_LIMITS_OFF };
  [a, b] = await Promise.all([startApp({ env }), startApp({ env })]);
  cleanups.push(
    () => a.kill(),
    () => b.kill(),
  );
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** A request as one client address (X-Forwarded-For, believed from loopback only). */
async function as(client: string, baseUrl: string, method: string, path: string, body?: unknown, cookie?: string) {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: {
      "x-forwarded-for": client,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as unknown) : null };
}

async function registerAndLogIn(client: string, on: AppProcess, loginOn: AppProcess) {
  const username = `twin_${tag()}`;
  const password = "a long enough password";
  const registered = await as(client, on.url, "POST", "/api/auth/register", {
    username,
    email: `${username}@example.co.za`,
    password,
    fullName: "Twin Shopper",
  });
  expect(registered.status).toBe(201);
  const login = await as(client, loginOn.url, "POST", "/api/auth/login", { username, password });
  expect(login.status).toBe(200);
  return { id: (registered.json as { id: string }).id, username, cookie: sessionCookie(login.headers) };
}

/** Polls `check` until it is true or `withinMs` is over; answers how long it took, or null. */
async function timeUntil(check: () => Promise<boolean>, withinMs: number): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < withinMs) {
    if (await check()) return performance.now() - started;
    await sleep(25);
  }
  return (await check()) ? performance.now() - started : null;
}

describe("two instances over one PostgreSQL", () => {
  it("both came up on one empty database, which was seeded once", async () => {
    expect(a.port).not.toBe(b.port);
    const [fromA, fromB] = await Promise.all([
      call(a.url, "GET", "/api/products"),
      call(b.url, "GET", "/api/products"),
    ]);
    expect(fromA.status).toBe(200);
    expect(fromA.json).toEqual(fromB.json);
    const names = (fromA.json as { name: string }[]).map((product) => product.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("accepts a session made on one instance on the other, and ends it on both at logout", async () => {
    const shopper = await registerAndLogIn("198.51.100.1", a, a);
    const onB = await as("198.51.100.1", b.url, "GET", "/api/auth/me", undefined, shopper.cookie);
    expect(onB.status).toBe(200);
    expect(onB.json).toMatchObject({ id: shopper.id, username: shopper.username });

    expect((await as("198.51.100.1", b.url, "POST", "/api/auth/logout", undefined, shopper.cookie)).status).toBe(204);
    expect((await as("198.51.100.1", a.url, "GET", "/api/auth/me", undefined, shopper.cookie)).status).toBe(401);
  });

  it("shows an admin's product and category changes on one instance in the other's catalogue within a second", async () => {
    const admin = await registerAndLogIn("198.51.100.2", a, a);
    await withClient(databaseUrl, (db) => db.query("update users set is_admin = true where id = $1", [admin.id]));

    const productsOnB = async () =>
      (await as("198.51.100.2", b.url, "GET", "/api/products")).json as {
        id: string;
        name: string;
        price: string;
      }[];
    // B has the catalogue in its cache before A changes it.
    const before = await productsOnB();
    const target = before[0];
    if (!target) throw new Error("no products");
    const etagBefore = (await as("198.51.100.2", b.url, "GET", "/api/products")).headers.get("etag");

    const renamed = `Renamed on A ${tag()}`;
    const current = (await as("198.51.100.2", a.url, "GET", "/api/products")).json as Record<string, unknown>[];
    const full = current.find((product) => product.id === target.id) as Record<string, unknown>;
    const { id: _id, ...body } = full;
    const updated = await as(
      "198.51.100.2",
      a.url,
      "PUT",
      `/api/admin/products/${target.id}`,
      // Every size at the new price (none keeps a price of its own).
      { ...body, name: renamed, price: "123.45", sizePrices: {} },
      admin.cookie,
    );
    expect(updated.status).toBe(200);
    const seenAfter = await timeUntil(
      async () => (await productsOnB()).some((product) => product.name === renamed && product.price === "123.45"),
      1_000,
    );
    expect(seenAfter, "B shows A's update within 1 s").not.toBeNull();
    const revalidated = await fetch(`${b.url}/api/products`, { headers: { "if-none-match": etagBefore ?? "" } });
    expect(revalidated.status).toBe(200);

    const created = await as(
      "198.51.100.2",
      a.url,
      "POST",
      "/api/admin/products",
      {
        ...body,
        name: `Made on A ${tag()}`,
        sizes: ["One size"],
        sizeImages: {},
        sizePrices: {},
        sizePackCounts: {},
        // The copied product's size guide names its own sizes, not this one's.
        fitMeasure: null,
        sizeFits: {},
        stock: { "One size": 5 },
      },
      admin.cookie,
    );
    expect(created.status).toBe(201);
    const createdId = (created.json as { id: string }).id;
    expect(await timeUntil(async () => (await productsOnB()).some((p) => p.id === createdId), 1_000)).not.toBeNull();

    expect(
      (await as("198.51.100.2", a.url, "DELETE", `/api/admin/products/${createdId}`, undefined, admin.cookie)).status,
    ).toBe(204);
    expect(await timeUntil(async () => !(await productsOnB()).some((p) => p.id === createdId), 1_000)).not.toBeNull();

    const category = `twin-${tag()}`;
    const categoryMade = await as(
      "198.51.100.2",
      b.url,
      "POST",
      "/api/admin/categories",
      { name: category },
      admin.cookie,
    );
    expect(categoryMade.status).toBe(201);
    const categoriesOnA = async () =>
      ((await as("198.51.100.2", a.url, "GET", "/api/categories")).json as { name: string }[]).map((c) => c.name);
    expect(await timeUntil(async () => (await categoriesOnA()).includes(category), 1_000)).not.toBeNull();
    console.info(`two instances: A's product update showed on B after ${Math.round(seenAfter ?? -1)} ms`);
  });

  it("counts failed logins across both instances: the account's 10th shuts out the networks that failed it", async () => {
    // Wrong passwords count against the account, in PostgreSQL, whichever instance answers
    // (docs/decisions/042): ten of them, three from one network and the rest each from its own.
    const victim = `nobody_${tag()}`;
    const failing = "203.0.113.1";
    const networkOf = (attempt: number) => (attempt < 3 ? failing : `203.0.113.${attempt + 1}`);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const instance = attempt % 2 === 0 ? a : b;
      const answer = await as(networkOf(attempt), instance.url, "POST", "/api/auth/login", {
        username: victim,
        password: "wrong password",
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(10).fill(401));
    // The network that gave three of them is refused on both instances, before its password is checked;
    // a network that has not been failing is still answered on its password.
    for (const instance of [a, b]) {
      const refused = await as(failing, instance.url, "POST", "/api/auth/login", {
        username: victim,
        password: "wrong password",
      });
      expect(refused.status).toBe(429);
    }
    const other = await as("203.0.113.99", b.url, "POST", "/api/auth/login", {
      username: victim,
      password: "wrong password",
    });
    expect(other.status).toBe(401);

    // And per address: ten from one address, alternating instances, then the 11th is refused.
    const fromOne: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const instance = attempt % 2 === 0 ? b : a;
      const answer = await as("203.0.113.200", instance.url, "POST", "/api/auth/login", {
        username: `someone_${tag()}`,
        password: "wrong password",
      });
      fromOne.push(answer.status);
    }
    expect(fromOne.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(fromOne[10]).toBe(429);
  });

  it("both stop cleanly", async () => {
    const [exitA, exitB] = await Promise.all([a.stop(), b.stop()]);
    expect(exitA).toEqual({ code: 0, signal: null });
    expect(exitB).toEqual({ code: 0, signal: null });
  });
});
