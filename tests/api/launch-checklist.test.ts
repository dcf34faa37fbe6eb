import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LaunchChecklist, LaunchItem } from "#domain/schemas/launch-checklist.js";
import { auditLog, launchChecklistTicks } from "#server/platform/db/schema.js";
import { type SignedIn, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
/** The shop started again on the same database: closed at the end. */
const restarts: TestApp[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
  customer = await signIn(t);
});
afterAll(async () => {
  for (const app of restarts) await app.close();
  await t.close();
});

const checklist = async (app: TestApp = t, cookie = admin.cookie) => {
  const response = await app.app.inject({ method: "GET", url: "/api/admin/launch-checklist", headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as LaunchChecklist;
};
const setItem = (itemId: string, payload: object, cookie = admin.cookie) =>
  t.app.inject({ method: "PUT", url: `/api/admin/launch-checklist/${itemId}`, headers: { cookie }, payload });
const auditOf = (itemId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "launch_checklist"), eq(auditLog.subjectId, itemId)))
    .orderBy(auditLog.id);
const ticks = () => t.db.select().from(launchChecklistTicks);

describe("GET /api/admin/launch-checklist", () => {
  it("lists every duty of content/launch-checklist.md with its source and explanation, none ticked at first", async () => {
    const list = await checklist();
    expect(list.title).toBe("Before you open");
    expect(list.live).toBe(false);
    expect(list.items.map((item) => item.id)).toEqual([
      "information-officer",
      "cgso",
      "operator-agreements",
      "breach-procedure",
      "vat-registration",
      "seller-details",
      "paia-manual",
      "clock",
      "test-payment",
    ]);
    expect(list.open).toBe(list.items.length);
    const officer = list.items[0] as LaunchItem;
    expect(officer).toMatchObject({
      title: expect.stringContaining("Information Officer"),
      done: false,
      changedBy: null,
    });
    expect(officer.source).toContain("POPIA s55(2)");
    expect(officer.html).toContain("www.inforegulator.org.za");
  });
});

describe("PUT /api/admin/launch-checklist/{itemId}", () => {
  it("ticks an item: stored with who and when, counted, and audited with the admin and address", async () => {
    const before = Date.now();
    const response = await setItem("cgso", { done: true });
    expect(response.statusCode, response.body).toBe(200);
    const item = response.json() as LaunchItem;
    expect(item).toMatchObject({ id: "cgso", done: true, changedBy: admin.username });
    expect(Date.parse(item.changedAt ?? "")).toBeGreaterThanOrEqual(before - 1000);

    const list = await checklist();
    expect(list.items.find((entry) => entry.id === "cgso")).toEqual(item);
    expect(list.open).toBe(list.items.length - 1);

    const [record, ...more] = await auditOf("cgso");
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      action: "launch_checklist.ticked",
      actorId: admin.id,
      actorUsername: admin.username,
      address: "127.0.0.1",
      before: { done: false },
      after: { done: true, title: "Register with the CGSO and pay its levy" },
    });
  });

  it("records nothing new when the item is ticked again", async () => {
    const response = await setItem("cgso", { done: true });
    expect(response.statusCode).toBe(200);
    expect(await auditOf("cgso")).toHaveLength(1);
  });

  it("unticks an item: the row says who unticked it, and the audit trail has both changes", async () => {
    await setItem("clock", { done: true });
    const other = await signInAsAdmin(t);
    const response = await setItem("clock", { done: false }, other.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: "clock", done: false, changedBy: other.username });
    expect((await checklist()).items.find((entry) => entry.id === "clock")?.done).toBe(false);
    expect((await auditOf("clock")).map((record) => [record.action, record.actorUsername])).toEqual([
      ["launch_checklist.ticked", admin.username],
      ["launch_checklist.unticked", other.username],
    ]);
  });

  it.each<[string, string, object, number, string]>([
    ["an item the checklist does not have", "register-the-dog", { done: true }, 404, "NOT_FOUND"],
    ["an id that cannot be an item's", "CGSO%20levy", { done: true }, 400, "VALIDATION_FAILED"],
    ["a tick that is not true or false", "paia-manual", { done: "yes" }, 400, "VALIDATION_FAILED"],
    ["no tick at all", "paia-manual", {}, 400, "VALIDATION_FAILED"],
  ])("refuses %s with { message, code } and changes nothing", async (_case, itemId, payload, status, code) => {
    const rows = await ticks();
    const response = await setItem(itemId, payload);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ message: expect.any(String), code });
    expect(await ticks()).toEqual(rows);
    expect(await auditOf(decodeURIComponent(itemId))).toEqual([]);
  });

  it("names the items it knows when asked for one it does not", async () => {
    const response = await setItem("register-the-dog", { done: true });
    expect(response.json().message).toMatch(/no item register-the-dog.*information-officer, cgso/);
  });

  it("refuses a customer (403) and nobody signed in (401), changing nothing", async () => {
    const rows = await ticks();
    const asCustomer = await setItem("breach-procedure", { done: true }, customer.cookie);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json()).toMatchObject({ code: "FORBIDDEN" });
    const anonymous = await setItem("breach-procedure", { done: true }, "");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: "NOT_LOGGED_IN" });
    const read = await t.app.inject({
      method: "GET",
      url: "/api/admin/launch-checklist",
      headers: { cookie: customer.cookie },
    });
    expect(read.statusCode).toBe(403);
    expect(await ticks()).toEqual(rows);
    expect(await auditOf("breach-procedure")).toEqual([]);
  });
});

describe("the ticks outlast the shop", () => {
  it("keeps a tick, its admin and time across a restart: a fresh app on the same database shows it", async () => {
    const ticked = (await setItem("information-officer", { done: true })).json() as LaunchItem;
    const again = await buildTestApp({}, {}, t.databaseUrl);
    restarts.push(again);
    const list = await checklist(again);
    expect(list.items.find((item) => item.id === "information-officer")).toEqual(ticked);
    expect(list.items.find((item) => item.id === "cgso")?.done).toBe(true);
  });

  it("are in the shop's CSV download of the checklist, with who and when", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/admin/launch-checklist.csv",
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="before-you-open.csv"');
    const lines = response.body.trim().split("\n");
    expect(lines[0]).toBe("Item,Duty,Source,Done,Ticked or unticked at (UTC),By");
    expect(lines).toHaveLength(10);
    const cgso = lines.find((line) => line.startsWith("cgso,"));
    expect(cgso).toMatch(new RegExp(`,yes,\\d{4}-\\d{2}-\\d{2}T[^,]+,${admin.username}$`));
    expect(lines.find((line) => line.startsWith("paia-manual,"))).toMatch(/,no,,$/);
    const customers = await t.app.inject({
      method: "GET",
      url: "/api/admin/launch-checklist.csv",
      headers: { cookie: customer.cookie },
    });
    expect(customers.statusCode).toBe(403);
  });
});
