import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dashboard } from "#domain/schemas/dashboard.js";
import type { Order } from "#domain/schemas/orders.js";
import {
  BACKUP_JOB,
  type BackupRun,
  backupAndRecord,
  backupDue,
  latestBackupSlot,
  runScheduledBackup,
} from "#server/platform/backup/daily.js";
import { OFFSITE_PREFIX, pruneOffsiteBackups } from "#server/platform/backup/offsite.js";
import type { S3Settings } from "#server/platform/config.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { backupCommand, createEmptyDatabase } from "../helpers/backup.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type BucketStandIn, startBucketStandIn } from "../helpers/s3-bucket.js";
import { registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

const TOKEN = "metrics-token-for-the-backup-copy-tests";
let bucket: BucketStandIn;
let dir: string;
let t: TestApp;
let s3: S3Settings;
/** The copy's retries without the real two seconds' wait. */
const copyOptions = { retryDelayMs: 5 };

beforeAll(async () => {
  // Two keys a page: ListObjectsV2's continuation is exercised by every listing.
  bucket = await startBucketStandIn({ pageSize: 2 });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-offsite-"));
  t = await buildListeningApp({
    // Hourly, the slot half an hour away: the job makes no backup of its own while the tests run.
    BACKUP_EVERY_HOURS: "1",
    BACKUP_MINUTE: String((new Date().getUTCMinutes() + 30) % 60),
    BACKUP_S3_URL: bucket.url,
    BACKUP_DIR: dir,
    METRICS_TOKEN: TOKEN,
    ALERT_EMAIL: "owner@example.co.za",
  });
  s3 = t.app.config.backup.s3 as S3Settings;
});
afterAll(async () => {
  await t?.close();
  await bucket?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const copyKeys = () =>
  [...bucket.objects.keys()].filter((key) => key.startsWith(`/shop-backups/${OFFSITE_PREFIX}`)).sort();

async function metric(name: string): Promise<number> {
  const answer = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.statusCode).toBe(200);
  const line = answer.body.split("\n").find((text) => text.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line.split(" ")[1]);
}

describe("the backup copy round trip", () => {
  it("copies a backup to the bucket; with the local file gone, restore --from-s3 brings the shop back into a fresh database, where a customer logs in and sees their orders", async () => {
    const customer = await registerAndLogin(t);
    const placed = [];
    for (const skip of [0, 1]) {
      const { orderId, payfastData } = await placeTestOrder(t, customer, [await stockedLine(t, 1, skip)]);
      placed.push(orderId);
      if (skip === 0) await payOnEmulator(t, orderId, payfastData);
    }

    const made = await backupAndRecord(t.pool, {
      databaseUrl: t.databaseUrl,
      dir,
      trigger: "command",
      offsite: s3,
      copyOptions,
    });
    const key = `${OFFSITE_PREFIX}${path.basename(made.file)}`;
    expect(made.copy).toEqual({ key, finishedAt: expect.any(Date), error: null });
    const stored = bucket.objects.get(`/shop-backups/${key}`);
    expect(stored?.body.equals(await fs.readFile(made.file))).toBe(true);
    // One signed PUT of the whole file with its length, then a HEAD that confirmed it.
    const sent = bucket.received.filter((request) => request.path === `/shop-backups/${key}`);
    expect(sent.map((request) => [request.method, request.status])).toEqual([
      ["PUT", 200],
      ["HEAD", 200],
    ]);
    expect(sent[0]?.headers["content-length"]).toBe(String(made.bytes));
    expect(sent[0]?.headers["x-amz-content-sha256"]).toMatch(/^[0-9a-f]{64}$/);
    await fs.rm(made.file);

    const target = await createEmptyDatabase();
    const { stdout, stderr } = await backupCommand(
      "restore",
      ["--from-s3", path.basename(made.file), "--database-url", target],
      { BACKUP_S3_URL: bucket.url, DATA_DIR: dir },
    );
    expect(stderr).toContain(`downloading ${path.basename(made.file)} from the bucket`);
    expect(stdout).toMatch(/^Restored \d+ rows of \d+ tables/);
    const version = new pg.Client({ connectionString: target });
    await version.connect();
    const { rows } = await version.query<{ v: number }>("select current_setting('server_version_num')::int as v");
    await version.end();
    expect(rows[0]?.v).toBeGreaterThanOrEqual(150000);

    const restored = await buildTestApp({}, {}, target);
    try {
      const login = await restored.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: customer.user.username, password: customer.password },
      });
      expect(login.statusCode, login.body).toBe(200);
      const name = restored.app.config.session.cookieName;
      const cookie = `${name}=${login.cookies.find((c) => c.name === name)?.value}`;
      const orders = await restored.app.inject({
        method: "GET",
        url: `/api/users/${customer.user.id}/orders`,
        headers: { cookie, "x-user-id": customer.user.id },
      });
      expect(orders.statusCode).toBe(200);
      expect((orders.json() as Order[]).map((order) => order.id).sort()).toEqual(placed.sort());
    } finally {
      await restored.close();
    }
  });

  it("answers a key the bucket does not hold with S3's NoSuchKey, and restores nothing", async () => {
    const target = await createEmptyDatabase();
    const failed = await backupCommand(
      "restore",
      ["--from-s3", "shop-2000-01-01T00-00-00-000Z.backup.gz", "--database-url", target],
      { BACKUP_S3_URL: bucket.url, DATA_DIR: dir },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      `There is no backup ${OFFSITE_PREFIX}shop-2000-01-01T00-00-00-000Z.backup.gz in the bucket`,
    );
  });
});

describe("a copy that fails", () => {
  it("is recorded with S3's reason, shown on the dashboard, counted in /metrics and alerted; a good copy resolves it", async () => {
    const before = await metric("shop_backup_copy_failures_total");
    // Three 503 SlowDown answers in a row: every try of the PUT fails.
    bucket.fail(3, 503, "PUT");
    const made = await backupAndRecord(t.pool, {
      databaseUrl: t.databaseUrl,
      dir,
      trigger: "daily",
      offsite: s3,
      copyOptions,
    });
    expect(made.copy?.error).toMatch(/PUT backups\/shop-.*\.backup\.gz answered 503 \(SlowDown: Please reduce/);
    expect(await fs.stat(made.file)).toBeTruthy();

    const { cookie } = await signInAsAdmin(t);
    const dashboard = await t.app.inject({ method: "GET", url: "/api/admin/dashboard", headers: { cookie } });
    const { copy } = (dashboard.json() as Dashboard).backup;
    expect(copy.configured).toBe(true);
    expect(copy.last).toEqual({
      key: `${OFFSITE_PREFIX}${path.basename(made.file)}`,
      finishedAt: made.copy?.finishedAt.toISOString(),
      error: made.copy?.error,
    });
    expect(await metric("shop_backup_copy_failures_total")).toBe(before + 1);
    expect(await metric("shop_backup_copy_last_failed")).toBe(1);
    const { raised } = await t.app.checkAlerts();
    expect(raised).toContain("backup-copy-failed");

    // Two 500s, then the bucket answers: the copy is retried and succeeds.
    bucket.fail(2, 500, "PUT");
    const good = await backupAndRecord(t.pool, {
      databaseUrl: t.databaseUrl,
      dir,
      trigger: "daily",
      offsite: s3,
      copyOptions,
    });
    expect(good.copy?.error).toBeNull();
    expect(await metric("shop_backup_copy_failures_total")).toBe(before + 1);
    expect(await metric("shop_backup_copy_last_failed")).toBe(0);
    expect(await metric("shop_backup_copy_last_success_timestamp_seconds")).toBe(
      Math.floor((good.copy?.finishedAt.getTime() ?? 0) / 1000),
    );
    const after = await t.app.checkAlerts();
    expect(after.resolved).toContain("backup-copy-failed");
  });

  it("is not retried when the bucket refuses the signature (a wrong secret): 403 SignatureDoesNotMatch", async () => {
    const wrong = { ...s3, secretAccessKey: "not-the-secret" };
    const puts = () => bucket.received.filter((request) => request.method === "PUT").length;
    const before = puts();
    const made = await backupAndRecord(t.pool, {
      databaseUrl: t.databaseUrl,
      dir,
      trigger: "command",
      offsite: wrong,
      copyOptions,
    });
    expect(made.copy?.error).toMatch(/answered 403 \(SignatureDoesNotMatch: /);
    expect(puts()).toBe(before + 1);
  });

  it("alerts when the last good copy is older than twice BACKUP_EVERY_HOURS", async () => {
    await t.pool.query("update backup_runs set copy_error = null where copy_error is not null");
    expect((await t.app.checkAlerts()).raised).not.toContain("backup-copy-stale");
    // BACKUP_EVERY_HOURS is 1: a copy 2 hours and a minute old is one too old.
    await t.pool.query("update backup_runs set copy_finished_at = now() - interval '121 minutes'");
    const { raised } = await t.app.checkAlerts();
    expect(raised).toContain("backup-copy-stale");
    await t.pool.query("update backup_runs set copy_finished_at = now() - interval '119 minutes'");
    expect((await t.app.checkAlerts()).resolved).toContain("backup-copy-stale");
  });
});

describe("retention in the bucket", () => {
  const put = (name: string, daysAgo: number) =>
    bucket.objects.set(`/shop-backups/${OFFSITE_PREFIX}${name}`, {
      body: Buffer.from(name),
      contentType: "application/gzip",
      lastModified: new Date(Date.now() - daysAgo * 86_400_000),
      metadata: {},
    });

  it("deletes copies older than BACKUP_KEEP_DAYS with ListObjectsV2 and DeleteObject, keeping the rest and what is not a backup", async () => {
    for (const key of copyKeys()) bucket.objects.delete(key);
    put("shop-a.backup.gz", 30);
    put("shop-b.backup.gz", 15);
    put("shop-c.backup.gz", 13);
    put("shop-d.backup.gz", 0);
    put("notes.txt", 100);
    bucket.objects.set("/shop-backups/media/photo.jpg", {
      body: Buffer.from("x"),
      contentType: "image/jpeg",
      lastModified: new Date(0),
      metadata: {},
    });
    const removed = await pruneOffsiteBackups(s3, 14);
    expect(removed.sort()).toEqual([`${OFFSITE_PREFIX}shop-a.backup.gz`, `${OFFSITE_PREFIX}shop-b.backup.gz`]);
    expect(copyKeys()).toEqual([
      `/shop-backups/${OFFSITE_PREFIX}notes.txt`,
      `/shop-backups/${OFFSITE_PREFIX}shop-c.backup.gz`,
      `/shop-backups/${OFFSITE_PREFIX}shop-d.backup.gz`,
    ]);
    expect(bucket.objects.has("/shop-backups/media/photo.jpg")).toBe(true);
    // Four backups listed two a page: the continuation token was followed.
    const lists = bucket.received.filter((request) => request.query.get("list-type") === "2");
    expect(lists.some((request) => request.query.has("continuation-token"))).toBe(true);
  });

  it("never deletes the newest copy, however old", async () => {
    for (const key of copyKeys()) bucket.objects.delete(key);
    put("shop-old.backup.gz", 40);
    put("shop-newest.backup.gz", 20);
    expect(await pruneOffsiteBackups(s3, 14)).toEqual([`${OFFSITE_PREFIX}shop-old.backup.gz`]);
    expect(copyKeys()).toEqual([`/shop-backups/${OFFSITE_PREFIX}shop-newest.backup.gz`]);
  });
});

describe("the hourly schedule at a fixed minute", () => {
  const at = (iso: string) => new Date(iso);
  const run = (started: string, finished: string, error: string | null = null): BackupRun => ({
    startedAt: at(started),
    finishedAt: at(finished),
    trigger: "daily",
    file: error ? null : "/backups/shop-x.backup.gz",
    bytes: error ? null : 1,
    rows: error ? null : 1,
    error,
  });
  const hourly = { everyHours: 1, minute: 17 };

  it("puts the slots at BACKUP_MINUTE past every BACKUP_EVERY_HOURS hours, counted from midnight UTC", () => {
    expect(latestBackupSlot(at("2030-03-04T10:16:59Z"), 1, 17)).toEqual(at("2030-03-04T09:17:00Z"));
    expect(latestBackupSlot(at("2030-03-04T10:17:00Z"), 1, 17)).toEqual(at("2030-03-04T10:17:00Z"));
    expect(latestBackupSlot(at("2030-03-04T10:59:59Z"), 1, 0)).toEqual(at("2030-03-04T10:00:00Z"));
    expect(latestBackupSlot(at("2030-03-04T10:20:00Z"), 6, 17)).toEqual(at("2030-03-04T06:17:00Z"));
    expect(latestBackupSlot(at("2030-03-04T00:10:00Z"), 24, 17)).toEqual(at("2030-03-03T00:17:00Z"));
  });

  it.each([
    ["the first backup, at once", "2030-03-04T10:05:00Z", null, null, true],
    ["not before minute 17", "2030-03-04T10:16:59Z", run("2030-03-04T09:17:01Z", "2030-03-04T09:17:40Z"), null, false],
    ["at minute 17", "2030-03-04T10:17:00Z", run("2030-03-04T09:17:01Z", "2030-03-04T09:17:40Z"), null, true],
    // A slow backup does not push the next one later: the slots stay at :17.
    ["after a slow one", "2030-03-04T11:17:00Z", run("2030-03-04T10:17:00Z", "2030-03-04T10:49:00Z"), null, true],
    ["once a slot", "2030-03-04T10:18:00Z", run("2030-03-04T10:17:01Z", "2030-03-04T10:17:40Z"), null, false],
    [
      "a failure waits for the next slot",
      "2030-03-04T10:50:00Z",
      run("2030-03-04T09:17:01Z", "2030-03-04T09:17:40Z"),
      run("2030-03-04T10:17:01Z", "2030-03-04T10:17:05Z", "disk full"),
      false,
    ],
    [
      "and is tried again there",
      "2030-03-04T11:17:00Z",
      run("2030-03-04T09:17:01Z", "2030-03-04T09:17:40Z"),
      run("2030-03-04T10:17:01Z", "2030-03-04T10:17:05Z", "disk full"),
      true,
    ],
    [
      "a backup dated in the future proves nothing",
      "2030-03-04T10:20:00Z",
      run("2030-03-04T12:17:00Z", "2030-03-04T12:17:30Z"),
      null,
      true,
    ],
  ])("%s", (_name, now, lastGood, failed, due) => {
    const last = failed ?? lastGood;
    expect(backupDue(at(now as string), { last, lastGood }, hourly)).toBe(due);
  });

  it("two instances on one database and one backup folder make one backup a slot between them", async () => {
    const shared = await fs.mkdtemp(path.join(os.tmpdir(), "shop-offsite-two-"));
    // The slot half an hour away: the test's few seconds never cross the next one.
    const minute = String((new Date().getUTCMinutes() + 30) % 60);
    const env = { BACKUP_EVERY_HOURS: "1", BACKUP_MINUTE: minute, BACKUP_DIR: shared, BACKUP_S3_URL: bucket.url };
    const first = await buildTestApp(env);
    const second = await buildTestApp(env, {}, first.databaseUrl);
    try {
      await Promise.all([first.app.jobs.started(), second.app.jobs.started()]);
      const count = async () =>
        (await first.pool.query<{ n: number }>("select count(*)::int as n from backup_runs")).rows[0]?.n ?? 0;
      await Promise.all([first.app.jobs.request(BACKUP_JOB), second.app.jobs.request(BACKUP_JOB)]);
      await waitFor(count, (n) => n > 0, 60_000);
      // Each instance asks again, as their timers do every minute: the slot's backup is made.
      for (let round = 0; round < 3; round++) {
        await Promise.all([first.app.jobs.request(BACKUP_JOB), second.app.jobs.request(BACKUP_JOB)]);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      expect(await count()).toBe(1);
      expect((await fs.readdir(shared)).filter((name) => name.endsWith(".backup.gz"))).toHaveLength(1);
      // The slot is passed on to the next instance only as a backup_runs row: not due again before the next slot.
      const made = await runScheduledBackup({
        pool: first.pool,
        databaseUrl: first.databaseUrl,
        ...first.app.config.backup,
        copyOptions,
      });
      expect(made).toBeNull();
    } finally {
      await second.close();
      await first.close();
      await fs.rm(shared, { recursive: true, force: true });
    }
  });
});
