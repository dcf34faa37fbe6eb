import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, saDay } from "#domain/sa-calendar.js";
import type { SubjectSource } from "#server/mail/subjects.js";
import { runScheduledBackup } from "#server/platform/backup/daily.js";
import { insertOrder, type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { withSubjects } from "../helpers/outbox.js";
import { waitFor } from "../helpers/wait.js";

const OWNER = "owner@example.co.za";
let t: TestApp;
let admin: SignedIn;
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-alerts-"));
  t = await buildTestApp({ ALERT_EMAIL: OWNER, ALERT_CHECK_MINUTES: "1", BACKUP_EVERY_HOURS: "24", DATA_DIR: dir });
  admin = await signInAsAdmin(t);
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** The owner's messages about one problem, oldest first: "raised" or "resolved", with the subject. */
async function mailsAbout(key: string, app: TestApp = t) {
  const { rows } = await app.pool.query<SubjectSource & { state: string; to: string }>(
    `select data->>'state' as state, kind, data, subject, to_address as to from emails
     where kind = 'owner_alert' and data->>'key' = $1 order by id`,
    [key],
  );
  return withSubjects(app, rows).map(({ state, subject, to }) => ({ state, subject, to }));
}

/** Checks twice in a row: a problem seen twice is still one message. */
async function checkTwice(app: TestApp = t) {
  await app.app.checkAlerts();
  await app.app.checkAlerts();
}

describe("owner alerts", () => {
  it("a message to a customer failing for an hour: one alert, one resolved note, and again if it comes back", async () => {
    const { rows } = await t.pool.query<{ id: number }>(
      `insert into emails (kind, event_key, to_address, subject, data, status, attempts, last_error, created_at)
       values ('account_changed', 'alert-test', 'thandi@example.co.za', 'Your password was changed', '{}', 'retrying', 4,
               'connect ECONNREFUSED 127.0.0.1:587', now() - interval '61 minutes')
       returning id`,
    );
    const id = rows[0]?.id;
    await checkTwice();
    const raised = await mailsAbout("email-failing");
    expect(raised).toEqual([
      { state: "raised", subject: "[Snug & Dry alert] Messages to customers are not going out", to: OWNER },
    ]);
    // The mail job sends (here: captures) it like any other message.
    await t.app.mail.deliverDue();
    const { rows: sent } = await t.pool.query<{ status: string; text_body: string }>(
      "select status, text_body from emails where kind = 'owner_alert' and data->>'key' = 'email-failing'",
    );
    expect(sent[0]?.status).toBe("captured");
    expect(sent[0]?.text_body).toContain("ECONNREFUSED");

    await t.pool.query("update emails set status = 'sent', sent_at = now() where id = $1", [id]);
    await checkTwice();
    expect((await mailsAbout("email-failing")).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
    expect((await mailsAbout("email-failing"))[1]?.subject).toBe(
      "[Snug & Dry resolved] Messages to customers are not going out",
    );

    await t.pool.query("update emails set status = 'failed' where id = $1", [id]);
    await checkTwice();
    expect((await mailsAbout("email-failing")).map((mail) => mail.state)).toEqual(["raised", "resolved", "raised"]);
    await t.pool.query("delete from emails where id = $1", [id]);
    await checkTwice();
  });

  it("a message younger than an hour is no problem yet", async () => {
    await t.pool.query(
      `insert into emails (kind, event_key, to_address, subject, data, status, attempts, created_at)
       values ('account_changed', 'alert-young', 'sipho@example.co.za', 'Hi', '{}', 'retrying', 1, now() - interval '59 minutes')`,
    );
    const before = (await mailsAbout("email-failing")).length;
    await checkTwice();
    expect(await mailsAbout("email-failing")).toHaveLength(before);
    await t.pool.query("delete from emails where event_key = 'alert-young'");
  });

  it("a payment in Needs attention: one alert per payment, resolved when the admin resolves it", async () => {
    const { rows } = await t.pool.query<{ id: string }>(
      `insert into payfast_itns (order_id, pf_payment_id, payment_status, amount_gross, source_ip, outcome, reason, raw_body)
       values (gen_random_uuid(), '1234567', 'COMPLETE', '99.00', '127.0.0.1', 'wrong_amount', 'amount differs', 'x')
       returning id::text`,
    );
    const key = `payment-attention:${rows[0]?.id}`;
    await checkTwice();
    const raised = await mailsAbout(key);
    expect(raised).toHaveLength(1);
    expect(raised[0]?.subject).toBe("[Snug & Dry alert] A payment needs attention (wrong amount)");

    const resolved = await t.app.inject({
      method: "POST",
      url: `/api/admin/payments/attention/payment-${rows[0]?.id}/resolve`,
      headers: { cookie: admin.cookie, origin: "http://localhost:3000" },
    });
    expect(resolved.statusCode, resolved.body).toBe(204);
    await checkTwice();
    expect((await mailsAbout(key)).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
  });

  it("a paid order not shipped 25 days after payment (ECTA s46): one alert with its day-30 deadline, resolved when it ships", async () => {
    const paidDaysAgo = async (days: number) => {
      const id = await insertOrder(t, { status: "completed" });
      await t.pool.query("update orders set paid_at = now() - make_interval(hours => $2) where id = $1", [
        id,
        days * 24,
      ]);
      return id;
    };
    const late = await paidDaysAgo(25.5);
    const onTime = await paidDaysAgo(24.5);
    const { rows } = await t.pool.query<{ paid_at: Date }>("select paid_at from orders where id = $1", [late]);
    const shipBy = addDays(saDay(rows[0]?.paid_at ?? new Date()), 30);
    const number = late.slice(-8).toUpperCase();
    await checkTwice();
    const raised = await mailsAbout(`late-shipment:${late}`);
    expect(raised).toEqual([
      {
        state: "raised",
        subject: `[Snug & Dry alert] Order ${number} is paid but not shipped: ship it by ${shipBy}`,
        to: OWNER,
      },
    ]);
    expect(await mailsAbout(`late-shipment:${onTime}`)).toEqual([]);

    const shipped = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${late}/status`,
      headers: { cookie: admin.cookie, origin: "http://localhost:3000" },
      payload: { status: "processed" },
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    await checkTwice();
    expect((await mailsAbout(`late-shipment:${late}`)).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
    await t.pool.query("update orders set status = 'processed', shipped_at = now() where id = $1", [onTime]);
  });

  it("PayFast out of reach (its API, the start check, its addresses): one alert per kind, resolved when it answers again", async () => {
    const key = "payfast:api";
    await t.pool.query(
      "insert into payfast_problems (kind, detail) values ('api', 'The transaction history answered 503 (Service Unavailable).')",
    );
    await checkTwice();
    const raised = await mailsAbout(key);
    expect(raised).toHaveLength(1);
    expect(raised[0]?.subject).toBe("[Snug & Dry alert] PayFast's API is not answering");

    await t.pool.query("update payfast_problems set cleared_at = now() where kind = 'api'");
    await checkTwice();
    expect((await mailsAbout(key)).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
  });

  it("a job that keeps failing: alerted after three failed runs in a row, resolved by a run that works", async () => {
    const run = (state: "failed" | "completed", message = "boom") =>
      t.pool.query(
        `insert into pgboss.job (name, state, completed_on, output) values ('expire-orders', $1, clock_timestamp(), $2)`,
        [state, JSON.stringify({ message })],
      );
    await t.app.jobs.started();
    await run("failed");
    await run("failed");
    await checkTwice();
    expect(await mailsAbout("job-failing:expire-orders")).toEqual([]);
    await run("failed", "relation does not exist");
    await checkTwice();
    const raised = await mailsAbout("job-failing:expire-orders");
    expect(raised.map((mail) => mail.subject)).toEqual(["[Snug & Dry alert] The expire-orders job keeps failing"]);
    await run("completed");
    await checkTwice();
    expect((await mailsAbout("job-failing:expire-orders")).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
  });

  it("a backup that fails, and one older than a day: each alerted once and resolved by a good backup", async () => {
    const blocked = path.join(dir, "not-a-folder");
    await fs.writeFile(blocked, "a file where the backups' folder should be");
    const options = { pool: t.pool, databaseUrl: t.databaseUrl, everyHours: 24, minute: 17, keepDays: 14 };
    await expect(runScheduledBackup({ ...options, dir: blocked })).rejects.toThrow();
    await checkTwice();
    expect((await mailsAbout("backup-failed")).map((mail) => mail.subject)).toEqual([
      "[Snug & Dry alert] The backup failed",
    ]);
    // Retried within the hour only once the hour is up: the failure is not hammered.
    expect(await runScheduledBackup({ ...options, dir: blocked })).toBeNull();

    const good = await runScheduledBackup({
      ...options,
      dir: path.join(dir, "backups"),
      now: new Date(Date.now() + 3_600_000),
    });
    expect(good?.file).toMatch(/shop-.*\.backup\.gz$/);
    await checkTwice();
    expect((await mailsAbout("backup-failed")).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
    expect(await mailsAbout("backup-stale")).toEqual([]);

    // 26 hours pass without a backup: stale.
    await t.pool.query("update backup_runs set finished_at = finished_at - interval '26 hours'");
    await checkTwice();
    expect((await mailsAbout("backup-stale")).map((mail) => mail.subject)).toEqual([
      "[Snug & Dry alert] The last backup is more than 25 hours old",
    ]);
    expect(await runScheduledBackup({ ...options, dir: path.join(dir, "backups") })).not.toBeNull();
    await checkTwice();
    expect((await mailsAbout("backup-stale")).map((mail) => mail.state)).toEqual(["raised", "resolved"]);

    // A backup that says it finished two hours from now (a clock set wrong) proves nothing: stale.
    await t.pool.query("update backup_runs set finished_at = now() + interval '2 hours'");
    await checkTwice();
    expect((await mailsAbout("backup-stale")).map((mail) => [mail.subject, mail.state])).toEqual([
      ["[Snug & Dry alert] The last backup is more than 25 hours old", "raised"],
      ["[Snug & Dry resolved] The last backup is more than 25 hours old", "resolved"],
      ["[Snug & Dry alert] The last backup is dated in the future", "raised"],
    ]);
  });

  it("the disk under DATA_DIR nearly full (below ALERT_DISK_FREE_PERCENT), and clear again", async () => {
    // Every real disk has less than 100% free: the same database seen by a shop whose line is 100%.
    const full = await buildTestApp(
      { ALERT_EMAIL: OWNER, DATA_DIR: dir, ALERT_DISK_FREE_PERCENT: "100" },
      {},
      t.databaseUrl,
    );
    try {
      await checkTwice(full);
      const raised = await mailsAbout("disk-nearly-full");
      expect(raised.map((mail) => mail.subject)).toEqual(["[Snug & Dry alert] The disk is nearly full"]);
    } finally {
      await full.close();
    }
    const clear = await buildTestApp(
      { ALERT_EMAIL: OWNER, DATA_DIR: dir, ALERT_DISK_FREE_PERCENT: "0" },
      {},
      t.databaseUrl,
    );
    try {
      await checkTwice(clear);
      expect((await mailsAbout("disk-nearly-full")).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
    } finally {
      await clear.close();
    }
  });

  it("raiseAlert and resolveAlert for the shop's other checks: one message each, untouched by the checks", async () => {
    const problem = { title: "PayFast's API does not answer", detail: "The start-up ping timed out." };
    expect(await t.app.alerts.raise("payfast-unreachable", problem)).toBe(true);
    expect(await t.app.alerts.raise("payfast-unreachable", problem)).toBe(false);
    await checkTwice();
    expect(await mailsAbout("payfast-unreachable")).toHaveLength(1);
    expect(await t.app.alerts.resolve("payfast-unreachable")).toBe(true);
    expect(await t.app.alerts.resolve("payfast-unreachable")).toBe(false);
    expect((await mailsAbout("payfast-unreachable")).map((mail) => mail.state)).toEqual(["raised", "resolved"]);
  });

  it("checks by itself every ALERT_CHECK_MINUTES, with no one asking; 0 turns the checks off", async () => {
    const failingMail = `insert into emails (kind, event_key, to_address, subject, data, status, attempts, created_at)
       values ('account_changed', 'alert-scheduled', 'lerato@example.co.za', 'Hi', '{}', 'failed', 5, now() - interval '2 hours')`;
    // Every 3 seconds: the check job runs on its own and mails the owner once.
    const often = await buildTestApp({ ALERT_EMAIL: OWNER, ALERT_CHECK_MINUTES: "0.05", DATA_DIR: dir });
    try {
      expect(often.app.jobs.names).toContain("check-alerts");
      await often.app.jobs.started();
      await often.pool.query(failingMail);
      const mails = await waitFor(
        () => mailsAbout("email-failing", often),
        (rows) => rows.length > 0,
        30_000,
      );
      expect(mails.map((mail) => mail.subject)).toEqual(["[Snug & Dry alert] Messages to customers are not going out"]);
    } finally {
      await often.close();
    }
    const never = await buildTestApp({ ALERT_EMAIL: OWNER, ALERT_CHECK_MINUTES: "0", DATA_DIR: dir });
    try {
      expect(never.app.jobs.names).not.toContain("check-alerts");
    } finally {
      await never.close();
    }
  }, 60_000);

  it("hourly backups: stale once the last good one is more than 2 hours old, not before", async () => {
    const hourly = await buildTestApp(
      { ALERT_EMAIL: OWNER, ALERT_CHECK_MINUTES: "1", BACKUP_EVERY_HOURS: "1", DATA_DIR: dir },
      {},
      t.databaseUrl,
    );
    try {
      // Whatever the tests above left raised or mailed about backups, gone: this one starts clean.
      await t.pool.query("delete from alerts where key = 'backup-stale'");
      await t.pool.query("delete from emails where kind = 'owner_alert' and data->>'key' = 'backup-stale'");
      await t.pool.query("delete from backup_runs");
      const ran = (hoursAgo: number) =>
        t.pool.query(
          `insert into backup_runs (started_at, finished_at, trigger, file, bytes, rows)
           values (now() - make_interval(secs => $1::float8 * 3600 + 5), now() - make_interval(secs => $1::float8 * 3600), 'daily', 'shop-x.backup.gz', 1, 1)`,
          [hoursAgo],
        );
      await ran(1.99);
      await hourly.app.checkAlerts();
      expect(await mailsAbout("backup-stale")).toEqual([]);
      await t.pool.query("delete from backup_runs");
      await ran(2.01);
      await hourly.app.checkAlerts();
      expect((await mailsAbout("backup-stale")).map((mail) => mail.subject)).toEqual([
        "[Snug & Dry alert] The last backup is more than 2 hours old",
      ]);
    } finally {
      await hourly.close();
    }
  });

  it("goes to SHOP_EMAIL when ALERT_EMAIL is not set", async () => {
    const other = await buildTestApp({ SHOP_EMAIL: "shop@example.co.za" }, {}, t.databaseUrl);
    try {
      await other.app.alerts.raise("default-address", { title: "Test", detail: "Where does it go?" });
      expect((await mailsAbout("default-address"))[0]?.to).toBe("shop@example.co.za");
    } finally {
      await other.close();
    }
  });
});
