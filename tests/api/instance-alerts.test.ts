import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLOCK_SKEW_LIMIT_MS, JOBS_ENGINE_DOWN_LOOKS } from "#server/alerts/instance-watch.js";
import type { SubjectSource } from "#server/mail/subjects.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { withSubjects } from "../helpers/outbox.js";

const OWNER = "owner@example.co.za";
/** How far the test moves the shop's clock from the real one (the database's). */
let offsetMs = 0;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ ALERT_EMAIL: OWNER, PORT: "3123" }, { clock: () => Date.now() + offsetMs });
  await t.app.jobs.started();
});
afterAll(() => t?.close());

const instance = `${hostname()}:3123`;

/** The owner's messages about one problem, oldest first: "raised" or "resolved", with the subject. */
async function mailsAbout(key: string) {
  const { rows } = await t.pool.query<SubjectSource & { state: string; detail: string }>(
    `select data->>'state' as state, kind, data, subject, data->>'detail' as detail from emails
     where kind = 'owner_alert' and data->>'key' = $1 order by id`,
    [key],
  );
  return withSubjects(t, rows).map(({ state, subject, detail }) => ({ state, subject, detail }));
}

describe("each instance's own checks", () => {
  it("a clock more than 30 s from the database's: one alert, resolved once it is back within 30 s", async () => {
    const key = `clock-skew:${instance}`;
    expect(await t.app.checkInstance()).toEqual({ raised: [], resolved: [] });

    offsetMs = CLOCK_SKEW_LIMIT_MS + 2_000;
    expect(await t.app.checkInstance()).toMatchObject({ raised: [key] });
    expect(await t.app.checkInstance()).toEqual({ raised: [], resolved: [] });
    const [raised] = await mailsAbout(key);
    expect(raised?.subject).toContain("The shop's clock is wrong");
    expect(raised?.detail).toMatch(/is 3[12] s ahead of the database's/);
    expect(raised?.detail).toMatch(/NTP: chrony or systemd-timesyncd/);

    // Just inside the limit: fine again.
    offsetMs = CLOCK_SKEW_LIMIT_MS - 2_000;
    expect(await t.app.checkInstance()).toMatchObject({ resolved: [key] });

    offsetMs = -(CLOCK_SKEW_LIMIT_MS + 2_000);
    expect(await t.app.checkInstance()).toMatchObject({ raised: [key] });
    expect((await mailsAbout(key)).at(-1)?.detail).toMatch(/behind the database's/);
    offsetMs = 0;
    expect(await t.app.checkInstance()).toMatchObject({ resolved: [key] });
    expect((await mailsAbout(key)).map((mail) => mail.state)).toEqual(["raised", "resolved", "raised", "resolved"]);
  });

  it(`a jobs engine down at ${JOBS_ENGINE_DOWN_LOOKS} looks in a row is an alert, and the shop stays ready for shoppers`, async () => {
    const key = `jobs-engine:${instance}`;
    expect(await t.app.checkInstance()).toEqual({ raised: [], resolved: [] });
    await t.app.jobs.stop();
    const ready = await t.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });

    // Down at fewer looks than that (a start, a database restart): no alert yet.
    for (let look = 1; look < JOBS_ENGINE_DOWN_LOOKS; look++) {
      expect(await t.app.checkInstance()).toEqual({ raised: [], resolved: [] });
    }
    expect(await t.app.checkInstance()).toEqual({ raised: [key], resolved: [] });
    expect(await t.app.checkInstance()).toEqual({ raised: [], resolved: [] });
    const [raised] = await mailsAbout(key);
    expect(raised?.subject).toContain("The shop's background jobs are not running");

    t.app.jobs.start();
    await t.app.jobs.started();
    expect(t.app.jobs.running).toBe(true);
    expect(await t.app.checkInstance()).toEqual({ raised: [], resolved: [key] });
    expect((await mailsAbout(key)).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
  }, 60_000);
});
