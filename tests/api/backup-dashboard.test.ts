import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Dashboard } from "#domain/schemas/dashboard.js";
import { BACKUP_JOB, runScheduledBackup } from "#server/platform/backup/daily.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { waitFor } from "../helpers/wait.js";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-backup-dashboard-"));
  t = await buildTestApp({ BACKUP_EVERY_HOURS: "24", BACKUP_DIR: dir });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

it("shows the last backup on the admin's dashboard: none, a good one with its file and size, then a failure", async () => {
  const { cookie } = await signInAsAdmin(t);
  const backupOf = async () => {
    const answer = await t.app.inject({ method: "GET", url: "/api/admin/dashboard", headers: { cookie } });
    expect(answer.statusCode).toBe(200);
    return (answer.json() as Dashboard).backup;
  };
  expect(await backupOf()).toEqual({
    everyHours: 24,
    minute: 17,
    last: null,
    lastGoodAt: null,
    copy: { configured: false, last: null, lastGoodAt: null },
  });

  // The shop's own backup job (BACKUP_EVERY_HOURS > 0) makes the first one, into BACKUP_DIR.
  expect(t.app.jobs.names).toContain(BACKUP_JOB);
  await t.app.jobs.started();
  await t.app.jobs.request(BACKUP_JOB);
  const first = await waitFor(backupOf, (backup) => backup.last !== null, 60_000);
  expect(first.last).toMatchObject({ error: null, file: expect.stringMatching(/^shop-.*\.backup\.gz$/) });
  expect(await fs.readdir(dir)).toEqual([first.last?.file]);
  const { rows } = await t.pool.query<{ trigger: string }>("select trigger from backup_runs");
  expect(rows).toEqual([{ trigger: "daily" }]);
  await t.pool.query("delete from backup_runs");
  await fs.rm(path.join(dir, first.last?.file ?? ""));

  const options = { pool: t.pool, databaseUrl: t.databaseUrl, dir, everyHours: 24, minute: 17, keepDays: 14 };
  const made = await runScheduledBackup(options);
  if (!made) throw new Error("no backup was due");
  const good = await backupOf();
  expect(good.last).toEqual({
    finishedAt: made.finishedAt.toISOString(),
    file: path.basename(made.file),
    bytes: made.bytes,
    error: null,
  });
  expect(good.lastGoodAt).toBe(made.finishedAt.toISOString());
  // Not due again within the day.
  expect(await runScheduledBackup(options)).toBeNull();

  const blocked = path.join(dir, "a-file");
  await fs.writeFile(blocked, "not a folder");
  await expect(
    runScheduledBackup({ ...options, dir: blocked, now: new Date(Date.now() + 25 * 3_600_000) }),
  ).rejects.toThrow();
  const failed = await backupOf();
  expect(failed.last?.error).toMatch(/EEXIST|ENOTDIR|not a directory|file already exists/);
  expect(failed.last?.file).toBeNull();
  expect(failed.lastGoodAt).toBe(made.finishedAt.toISOString());
});

it("refuses to back up into a folder others can open, saying so with the folder and the fix, then backs up once it is 0700 (issue 39)", async () => {
  const { cookie } = await signInAsAdmin(t);
  const open = path.join(dir, "open");
  await fs.mkdir(open);
  await fs.chmod(open, 0o710);
  const options = { pool: t.pool, databaseUrl: t.databaseUrl, dir: open, everyHours: 24, minute: 17, keepDays: 14 };
  // Later than the first test's runs and their hour of retry pause.
  const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);
  await expect(runScheduledBackup({ ...options, now: later(50) })).rejects.toThrow(/chmod 700/);
  expect(await fs.readdir(open)).toEqual([]);
  const answer = await t.app.inject({ method: "GET", url: "/api/admin/dashboard", headers: { cookie } });
  const { backup } = answer.json() as Dashboard;
  expect(backup.last?.error).toBe(
    `BACKUP_DIR: ${open} is open to other users of this machine (mode 0710): backups hold every customer's details and a restore loads whatever file is there. Make it the shop's own: chmod 700 '${open}'`,
  );

  await fs.chmod(open, 0o700);
  const made = await runScheduledBackup({ ...options, now: later(52) });
  expect(made?.file.startsWith(open)).toBe(true);
});
