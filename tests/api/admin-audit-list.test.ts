import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedIn, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
});
afterAll(() => t.close());

interface Entry {
  id: number;
  at: string;
  actorUsername: string | null;
  address: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
type Page = { entries: Entry[]; nextCursor: string | null };

const list = async (query = "") => {
  const response = await t.app.inject({
    method: "GET",
    url: `/api/admin/audit${query}`,
    headers: { cookie: admin.cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Page;
};

/** Audit records straight into the table: `count` category renames by `actor` from `address`. */
async function insertRecords(count: number, actor: string, address: string) {
  await t.pool.query(
    `insert into audit_log (actor_username, address, action, subject_type, subject_id, before, after)
     select $2, $3, 'category.updated', 'category', 'cat-' || n, '{"name":"old"}', '{"name":"new"}'
     from generate_series(1, $1) as n`,
    [count, actor, address],
  );
}

describe("GET /api/admin/audit", () => {
  it("pages through the trail newest first, none missed or repeated while new records arrive", async () => {
    await insertRecords(130, "pager", "192.0.2.1");
    const { rows } = await t.pool.query<{ id: string }>("select id from audit_log order by id desc");
    const expected = rows.map((row) => Number(row.id));
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(cursor ? `?cursor=${cursor}` : "");
      expect(page.entries.length).toBeLessThanOrEqual(50);
      seen.push(...page.entries.map((entry) => entry.id));
      cursor = page.nextCursor;
      await insertRecords(2, "latecomer", "192.0.2.2");
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it("answers each record with who, when, from where, what and what changed", async () => {
    const customer = await signIn(t);
    await t.app.inject({
      method: "GET",
      url: "/api/admin/products",
      headers: { cookie: customer.cookie },
      remoteAddress: "198.51.100.77",
    });
    const [newest] = (await list()).entries;
    expect(newest).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      actorId: customer.id,
      actorUsername: customer.username,
      address: "198.51.100.77",
      action: "auth.admin_refused",
      subjectType: null,
      subjectId: null,
      before: null,
      after: { method: "GET", url: "/api/admin/products" },
      repeatCount: 1,
      lastAt: null,
      clientRequestId: null,
    });
  });

  it("finds records by a part of the actor's name, the action, the subject's id or the address, in any case", async () => {
    await insertRecords(3, "Nomvula_Audit", "10.20.30.40");
    const only = (page: Page) => new Set(page.entries.map((entry) => `${entry.actorUsername}@${entry.address}`));
    expect(only(await list("?q=NOMVULA_a"))).toEqual(new Set(["Nomvula_Audit@10.20.30.40"]));
    expect(only(await list("?q=10.20.30"))).toEqual(new Set(["Nomvula_Audit@10.20.30.40"]));
    const bySubject = await list("?q=cat-129");
    expect(bySubject.entries.map((entry) => entry.subjectId)).toEqual(["cat-129"]);
    const byAction = await list("?q=ADMIN_REFUSED");
    expect(byAction.entries.length).toBeGreaterThan(0);
    expect(byAction.entries.every((entry) => entry.action === "auth.admin_refused")).toBe(true);
    expect((await list("?q=_%25")).entries).toEqual([]);
  });

  it("refuses a cursor it did not make and a search over 100 characters", async () => {
    for (const url of [
      "/api/admin/audit?cursor=abc",
      "/api/admin/audit?cursor=%2F",
      `/api/admin/audit?q=${"x".repeat(101)}`,
    ]) {
      const response = await t.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
  });

  it("is for admins only", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/admin/audit" })).statusCode).toBe(401);
    const customer = await signIn(t);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/admin/audit",
      headers: { cookie: customer.cookie },
    });
    expect(refused.statusCode).toBe(403);
  });
});
