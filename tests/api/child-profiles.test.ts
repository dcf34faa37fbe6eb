import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CHILD_PROFILES } from "#domain/limits.js";
import { saDay } from "#domain/sa-calendar.js";
import type { ChildProfile, SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import type { SubjectSource } from "#server/mail/subjects.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { withSubjects } from "../helpers/outbox.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
});
afterAll(() => t.close());

let addressCounter = 1;
/** Each request from its own address, so the per-network limits of password checks never get in the way. */
const nextAddress = () => `10.88.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

const children = (who: LoggedInUser) => `/api/users/${who.user.id}/children`;
const add = (who: LoggedInUser, payload: Record<string, unknown>, headers: Record<string, string> = who.headers) =>
  t.app.inject({ method: "POST", url: children(who), headers, payload });
const list = (who: LoggedInUser, headers: Record<string, string> = who.headers) =>
  t.app.inject({ method: "GET", url: children(who), headers });

describe("/api/users/{id}/children", () => {
  it("keeps a child with a name, birth month and weight, and changes and removes it", async () => {
    const parent = await registerAndLogin(t);
    const created = await add(parent, {
      name: " Lwazi ",
      birthMonth: "2025-03",
      weightKg: 7.45,
      weighedOn: "2026-01-10",
    });
    expect(created.statusCode, created.body).toBe(201);
    const child = created.json() as ChildProfile;
    expect(child).toMatchObject({ name: "Lwazi", birthMonth: "2025-03", weightGrams: 7450, weighedOn: "2026-01-10" });
    expect(created.headers["cache-control"]).toBe("no-store");

    const onlyName = await add(parent, { name: "Bean" });
    expect(onlyName.json()).toMatchObject({ name: "Bean", birthMonth: null, weightGrams: null, weighedOn: null });
    const weighedToday = await add(parent, { name: "Zee", weightKg: 4 });
    expect(weighedToday.json()).toMatchObject({ weightGrams: 4000, weighedOn: saDay() });

    const changed = await t.app.inject({
      method: "PUT",
      url: `${children(parent)}/${child.id}`,
      headers: parent.headers,
      payload: { name: "Lwazi", birthMonth: "2025-03", weightKg: "", weighedOn: "" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ weightGrams: null, weighedOn: null });

    const removed = await t.app.inject({
      method: "DELETE",
      url: `${children(parent)}/${child.id}`,
      headers: parent.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect(((await list(parent)).json() as ChildProfile[]).map((c) => c.name)).toEqual(["Bean", "Zee"]);
    const again = await t.app.inject({
      method: "DELETE",
      url: `${children(parent)}/${child.id}`,
      headers: parent.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it(`keeps at most ${MAX_CHILD_PROFILES} children per account`, async () => {
    const parent = await registerAndLogin(t);
    for (let i = 1; i <= MAX_CHILD_PROFILES; i++) {
      expect((await add(parent, { name: `Child ${i}` })).statusCode).toBe(201);
    }
    const over = await add(parent, { name: "One more" });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({
      message: `An account may keep at most ${MAX_CHILD_PROFILES} children.`,
      code: "CHILD_PROFILE_LIMIT",
    });
    expect((await list(parent)).json()).toHaveLength(MAX_CHILD_PROFILES);
  });

  it.each([
    [{ name: "" }, "name is required"],
    [{ name: "x".repeat(41) }, "name must be at most 40 characters"],
    [{ name: "Ok", weightKg: 0.999 }, "weightKg must be from 1 to 40"],
    [{ name: "Ok", weightKg: 40.001 }, "weightKg must be from 1 to 40"],
    [{ name: "Ok", birthMonth: "2025-13" }, "birthMonth must be a month"],
    [{ name: "Ok", birthMonth: "2999-01" }, "birthMonth must be within the last 16 years"],
    [{ name: "Ok", weightKg: 8, weighedOn: "2999-01-01" }, "weighedOn must not be in the future"],
    [{ name: "Ok", weighedOn: "2026-01-01" }, "weighedOn needs a weight"],
  ])("refuses %j with 400", async (payload, message) => {
    const parent = await registerAndLogin(t);
    const response = await add(parent, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringContaining(message) });
  });

  it("takes names of 1 and 40 characters and weights of 1 and 40 kg", async () => {
    const parent = await registerAndLogin(t);
    expect((await add(parent, { name: "A", weightKg: 1 })).statusCode).toBe(201);
    expect((await add(parent, { name: "x".repeat(40), weightKg: 40 })).statusCode).toBe(201);
  });

  it("answers only the parent and an admin, as the profile does", async () => {
    const parent = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const created = (await add(parent, { name: "Lwazi" })).json() as ChildProfile;
    expect((await list(parent, other.headers)).statusCode).toBe(403);
    expect((await list(parent, {})).statusCode).toBe(401);
    expect((await add(parent, { name: "Sneaky" }, other.headers)).statusCode).toBe(403);
    // Another parent's child is as unknown as a missing one, even on their own address.
    const theirs = await t.app.inject({
      method: "PUT",
      url: `${children(other)}/${created.id}`,
      headers: other.headers,
      payload: { name: "Mine now" },
    });
    expect(theirs.statusCode).toBe(404);
    const asAdmin = await list(parent, { cookie: admin.cookie });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toHaveLength(1);
  });
});

describe("a child in the size finder", () => {
  it("recommends by the child's weight and says 'time to move up a size?' once per weight", async () => {
    const parent = await registerAndLogin(t);
    // 8.6 kg: within 0.5 kg of the top of Size 3 (4-9 kg) in the seeded value pack.
    const child = (await add(parent, { name: "Lwazi", weightKg: 8.6 })).json() as ChildProfile;
    const finder = () =>
      t.app.inject({
        method: "GET",
        url: `/api/size-finder?childId=${child.id}&category=baby`,
        headers: parent.headers,
      });
    const first = (await finder()).json() as SizeFinderAnswer;
    expect(first).toMatchObject({ measure: "weight", value: 8600, sizeUpPrompt: true });
    expect(first.recommendations.some((r) => r.nearTopOf === "Size 3 (4-9kg)" && r.size === "Size 4 (7-18kg)")).toBe(
      true,
    );

    const prompted = await t.app.inject({
      method: "POST",
      url: `${children(parent)}/${child.id}/size-up-prompted`,
      headers: parent.headers,
    });
    expect(prompted.statusCode, prompted.body).toBe(200);
    expect(((await finder()).json() as SizeFinderAnswer).sizeUpPrompt).toBe(false);

    // The same weight saved again says nothing new; a new weight clears it.
    const put = (weightKg: number) =>
      t.app.inject({
        method: "PUT",
        url: `${children(parent)}/${child.id}`,
        headers: parent.headers,
        payload: { name: "Lwazi", weightKg },
      });
    expect((await put(8.6)).json().sizeUpPromptedAt).not.toBeNull();
    expect((await put(8.7)).json().sizeUpPromptedAt).toBeNull();
    expect(((await finder()).json() as SizeFinderAnswer).sizeUpPrompt).toBe(true);
  });

  it("does not prompt a child far from the top of a range, and refuses another's child or one without a weight", async () => {
    const parent = await registerAndLogin(t);
    const light = (await add(parent, { name: "Middling", weightKg: 6.5 })).json() as ChildProfile;
    const noWeight = (await add(parent, { name: "Unweighed" })).json() as ChildProfile;
    const other = await registerAndLogin(t);
    const at = (childId: string, headers = parent.headers) =>
      t.app.inject({ method: "GET", url: `/api/size-finder?childId=${childId}&category=baby`, headers });
    const answer = (await at(light.id)).json() as SizeFinderAnswer;
    expect(answer.sizeUpPrompt).toBe(false);
    expect((await at(light.id, other.headers)).statusCode).toBe(404);
    const unweighed = await at(noWeight.id);
    expect(unweighed.statusCode).toBe(400);
    expect(unweighed.json()).toEqual({ message: "Add the child's weight first", code: "VALIDATION_FAILED" });
  });
});

describe("a child's details are the parent's personal information", () => {
  it("go with the data export, and go away when the account is closed", async () => {
    const parent = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    await add(parent, { name: "Lwazi", birthMonth: "2025-03", weightKg: 7.5, weighedOn: "2026-01-10" });
    await add(other, { name: "Someone else's" });
    const exported = await t.app.inject({
      method: "POST",
      url: "/api/account/data-export",
      headers: parent.headers,
      payload: { password: parent.password },
      remoteAddress: nextAddress(),
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(JSON.parse(exported.body).children).toEqual([
      expect.objectContaining({ name: "Lwazi", birthMonth: "2025-03", weightGrams: 7500, weighedOn: "2026-01-10" }),
    ]);

    const closed = await t.app.inject({
      method: "POST",
      url: "/api/account/close",
      headers: parent.headers,
      payload: { password: parent.password },
      remoteAddress: nextAddress(),
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const left = await t.pool.query("select name from child_profiles where user_id = $1", [parent.user.id]);
    expect(left.rows).toEqual([]);
    expect(
      (await t.pool.query("select name from child_profiles where user_id = $1", [other.user.id])).rows,
    ).toHaveLength(1);
  });

  it("are deleted with the account's row", async () => {
    const parent = await registerAndLogin(t);
    await add(parent, { name: `Gone ${randomBytes(2).toString("hex")}` });
    await t.pool.query("delete from sessions where user_id = $1", [parent.user.id]);
    await t.pool.query("delete from users where id = $1", [parent.user.id]);
    expect((await t.pool.query("select 1 from child_profiles where user_id = $1", [parent.user.id])).rows).toEqual([]);
  });

  it("are never in an e-mail subject", async () => {
    const names = (await t.pool.query<{ name: string }>("select name from child_profiles")).rows.map((r) => r.name);
    const rows = (await t.pool.query<SubjectSource>("select kind, data, subject from emails")).rows;
    const subjects = withSubjects(t, rows).map((r) => r.subject);
    expect(names.length).toBeGreaterThan(0);
    expect(subjects.length).toBeGreaterThan(0);
    for (const name of names) for (const subject of subjects) expect(subject).not.toContain(name);
  });
});
