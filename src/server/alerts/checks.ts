import fs from "node:fs/promises";
import path from "node:path";
import { orderNumber } from "#domain/order-status.js";
import { LATE_SHIPMENT_ALERT_DAYS, PERFORM_DAYS, shipByDay } from "#domain/returns.js";
import { saDay } from "#domain/sa-calendar.js";
import { ITN_ATTENTION_OUTCOMES } from "#domain/schemas/payments.js";
import { latestBackups, latestCopies } from "../platform/backup/daily.js";
import { JOBS_SCHEMA } from "../platform/jobs/engine.js";
import { type AlertContext, type Problem, raiseAlert, raisedAlertKeys, resolveAlert } from "./alerts.js";

/** The pg-boss queue of the checks (platform/jobs/engine.ts). */
export const ALERT_CHECK_JOB = "check-alerts";
/** A message to a customer not sent for this long is a problem. */
export const EMAIL_FAILING_MINUTES = 60;
/** A job whose last this many runs all failed "keeps failing". */
export const JOB_FAILURES_IN_A_ROW = 3;
/** At most this many payments needing attention are alerted one by one per check. */
const PAYMENTS_PER_CHECK = 20;

export interface CheckContext extends AlertContext {
  config: AlertContext["config"] & {
    dataDir: string;
    backup: { everyHours: number; s3?: object | undefined };
  };
  /** The recurring jobs' names (their pg-boss queues). */
  jobNames: readonly string[];
  /** Free space under a folder, as a share of the disk (tests need no fake: ALERT_DISK_FREE_PERCENT moves the line). */
  freeDiskShare?: (dir: string) => Promise<number>;
}

/**
 * The alert checks (every ALERT_CHECK_MINUTES): finds each problem there is now, raises its
 * alert (one message per problem, however many checks see it), and resolves every raised alert of
 * these checks whose problem is gone (one "resolved" note). Alerts raised by other parts of the
 * shop (raiseAlert with another key) are theirs to resolve.
 */
export async function checkAlerts(context: CheckContext): Promise<{ raised: string[]; resolved: string[] }> {
  const problems = new Map<string, Problem>();
  const add = (key: string, problem: Problem | null) => {
    if (problem) problems.set(key, problem);
  };
  add("email-failing", await failingEmails(context));
  for (const [key, problem] of await paymentsNeedingAttention(context)) add(key, problem);
  for (const [key, problem] of await lateShipments(context)) add(key, problem);
  for (const [key, problem] of await payfastUnreachable(context)) add(key, problem);
  for (const [key, problem] of await failingJobs(context)) add(key, problem);
  add("backup-failed", await backupFailed(context));
  add("backup-stale", await backupStale(context));
  add("backup-copy-failed", await backupCopyFailed(context));
  add("backup-copy-stale", await backupCopyStale(context));
  add("disk-nearly-full", await diskNearlyFull(context));

  const raised: string[] = [];
  for (const [key, problem] of problems) if (await raiseAlert(context, key, problem)) raised.push(key);
  const resolved: string[] = [];
  for (const key of await raisedAlertKeys(context)) {
    if (!problems.has(key) && isCheckKey(key) && (await resolveAlert(context, key))) resolved.push(key);
  }
  return { raised, resolved };
}

const CHECK_KEYS = [
  "email-failing",
  "backup-failed",
  "backup-stale",
  "backup-copy-failed",
  "backup-copy-stale",
  "disk-nearly-full",
];
const CHECK_PREFIXES = ["payment-attention:", "late-shipment:", "payfast:", "job-failing:"];
const isCheckKey = (key: string) => CHECK_KEYS.includes(key) || CHECK_PREFIXES.some((prefix) => key.startsWith(prefix));

async function failingEmails({ pool }: CheckContext): Promise<Problem | null> {
  // Messages of the last two days not sent for an hour: a resend or a sent retry clears them.
  const { rows } = await pool.query<{ count: number; error: string | null }>(
    `select count(*)::int as count, (array_agg(last_error order by id desc))[1] as error from emails
     where kind <> 'owner_alert' and status in ('retrying', 'failed')
       and created_at between now() - interval '2 days' and now() - make_interval(mins => $1)`,
    [EMAIL_FAILING_MINUTES],
  );
  const count = rows[0]?.count ?? 0;
  if (count === 0) return null;
  return {
    title: "Messages to customers are not going out",
    detail: `${count} message${count === 1 ? "" : "s"} to customers ha${count === 1 ? "s" : "ve"} not been sent for over an hour (the last error: ${rows[0]?.error ?? "none recorded"}). Check SMTP_URL and the mail provider; the admin's Emails tab shows each message and can resend it.`,
  };
}

async function paymentsNeedingAttention({ pool }: CheckContext): Promise<Map<string, Problem>> {
  const { rows } = await pool.query<{ id: string; outcome: string; order_id: string | null; amount: string | null }>(
    `select id::text, outcome, order_id::text, amount_gross as amount from payfast_itns
     where resolved_at is null and outcome = any($1::text[]) order by id limit $2`,
    [ITN_ATTENTION_OUTCOMES, PAYMENTS_PER_CHECK],
  );
  return new Map(
    rows.map((row) => [
      `payment-attention:${row.id}`,
      {
        title: `A payment needs attention (${row.outcome.replaceAll("_", " ")})`,
        detail: `PayFast reported a payment${row.amount ? ` of R${row.amount}` : ""}${row.order_id ? ` for order ${row.order_id.slice(-8).toUpperCase()}` : ""} that the shop could not simply book: ${row.outcome.replaceAll("_", " ")}. Open the admin's Payment Verification, Needs attention, to refund or resolve it.`,
      },
    ]),
  );
}

/**
 * ECTA s46(1): a paid order must be executed within 30 days. Each paid order not shipped
 * LATE_SHIPMENT_ALERT_DAYS after payment is one alert, resolved once it ships, is cancelled or
 * refunded.
 */
async function lateShipments({ pool }: CheckContext): Promise<Map<string, Problem>> {
  const { rows } = await pool.query<{ id: string; paid_at: Date }>(
    `select id::text, paid_at from orders
     where status = 'completed' and paid_at < now() - make_interval(days => $1)
     order by paid_at limit $2`,
    [LATE_SHIPMENT_ALERT_DAYS, PAYMENTS_PER_CHECK],
  );
  return new Map(
    rows.map((row) => [
      `late-shipment:${row.id}`,
      {
        title: `Order ${orderNumber(row.id)} is paid but not shipped: ship it by ${shipByDay(row.paid_at)}`,
        detail: `Order ${orderNumber(row.id)} was paid on ${saDay(row.paid_at)} and has not shipped. The law gives the shop ${PERFORM_DAYS} days to deliver (ECTA s46(1)): ship it by ${shipByDay(row.paid_at)}, or, if the goods cannot be supplied, tell the customer at once and refund within 30 days (s46(3)). The admin's dashboard lists it under Needs attention.`,
      },
    ]),
  );
}

const PAYFAST_PROBLEM_TITLES: Record<string, string> = {
  api: "PayFast's API is not answering",
  ping: "PayFast's API failed the shop's start check",
  dns: "PayFast's addresses cannot be found",
};

/** PayFast's API not answering, the live start's ping failing, PayFast's hosts not resolving (payfast/problems.ts). */
async function payfastUnreachable({ pool }: CheckContext): Promise<Map<string, Problem>> {
  const { rows } = await pool.query<{ kind: string; detail: string }>(
    "select kind, detail from payfast_problems where cleared_at is null order by since",
  );
  return new Map(
    rows.map((row) => [
      `payfast:${row.kind}`,
      { title: PAYFAST_PROBLEM_TITLES[row.kind] ?? "The shop cannot reach PayFast", detail: row.detail },
    ]),
  );
}

async function failingJobs({ pool, jobNames }: CheckContext): Promise<Map<string, Problem>> {
  const found = new Map<string, Problem>();
  const { rows: present } = await pool.query<{ present: boolean }>("select to_regclass($1) is not null as present", [
    `${JOBS_SCHEMA}.job`,
  ]);
  if (!present[0]?.present) return found;
  for (const name of jobNames) {
    const { rows } = await pool.query<{ state: string; output: unknown }>(
      `select state::text, output from ${JOBS_SCHEMA}.job where name = $1 and state in ('completed', 'failed')
       order by completed_on desc limit $2`,
      [name, JOB_FAILURES_IN_A_ROW],
    );
    if (rows.length === JOB_FAILURES_IN_A_ROW && rows.every((row) => row.state === "failed")) {
      const output = rows[0]?.output as { message?: unknown } | null;
      found.set(`job-failing:${name}`, {
        title: `The ${name} job keeps failing`,
        detail: `Its last ${JOB_FAILURES_IN_A_ROW} runs failed (the last error: ${String(output?.message ?? "none recorded")}). The shop's log has the details.`,
      });
    }
  }
  return found;
}

async function backupFailed({ pool, config }: CheckContext): Promise<Problem | null> {
  if (config.backup.everyHours === 0) return null;
  const { last } = await latestBackups(pool);
  if (!last?.error) return null;
  return {
    title: "The backup failed",
    detail: `The last backup (${last.trigger}, ${last.finishedAt.toISOString()}) failed: ${last.error}. The next attempt is within the hour; docs/backups.md says how to back up by hand.`,
  };
}

async function backupStale({ pool, config }: CheckContext): Promise<Problem | null> {
  if (config.backup.everyHours === 0) return null;
  const { lastGood } = await latestBackups(pool);
  if (!lastGood) return null;
  // One slot missed, and an hour's grace for the next: 2 hours for hourly backups, 25 for daily ones.
  const limitHours = config.backup.everyHours + 1;
  const ageHours = (Date.now() - lastGood.finishedAt.getTime()) / 3_600_000;
  // A backup that "finished in the future" (a clock set wrong, then corrected) proves nothing about now.
  if (ageHours < -1 / 60) {
    return {
      title: "The last backup is dated in the future",
      detail: `The last good backup says it finished at ${lastGood.finishedAt.toISOString()}, after now: a clock was wrong when it was taken. It is counted as stale; check the machine's time (NTP) and run npm run backup.`,
    };
  }
  if (ageHours <= limitHours) return null;
  return {
    title: `The last backup is more than ${limitHours} hours old`,
    detail: `The last good backup finished ${ageHours.toFixed(0)} hours ago (${lastGood.file}). Check the shop's log for the backup job, or run npm run backup.`,
  };
}

async function backupCopyFailed({ pool, config }: CheckContext): Promise<Problem | null> {
  if (!config.backup.s3) return null;
  const { last } = await latestCopies(pool);
  if (!last?.error) return null;
  return {
    title: "The backup's off-site copy failed",
    detail: `Copying ${last.key} to the bucket (BACKUP_S3_URL) failed at ${last.finishedAt.toISOString()}: ${last.error}. The backup is only on this machine until a copy succeeds; the next backup tries again (docs/backups.md).`,
  };
}

/** The last good copy is older than two backup intervals: a disk lost now would lose more than the owner chose to. */
async function backupCopyStale({ pool, config }: CheckContext): Promise<Problem | null> {
  if (!config.backup.s3 || config.backup.everyHours === 0) return null;
  const { lastGoodAt } = await latestCopies(pool);
  if (!lastGoodAt) return null;
  const limitHours = 2 * config.backup.everyHours;
  const ageHours = (Date.now() - lastGoodAt.getTime()) / 3_600_000;
  if (ageHours <= limitHours && ageHours >= -1 / 60) return null;
  return {
    title: "The backups' off-site copy is out of date",
    detail: `The last good copy in the bucket (BACKUP_S3_URL) finished at ${lastGoodAt.toISOString()}, ${ageHours.toFixed(1)} hours ago (the limit is ${limitHours}, twice BACKUP_EVERY_HOURS). Check the shop's log for the backup job.`,
  };
}

async function diskNearlyFull(context: CheckContext): Promise<Problem | null> {
  const dir = await nearestExisting(context.config.dataDir);
  const free = await (context.freeDiskShare ?? freeDiskShare)(dir);
  const limit = context.config.alerts.diskFreePercent;
  if (free * 100 >= limit) return null;
  return {
    title: "The disk is nearly full",
    detail: `Only ${(free * 100).toFixed(1)}% of the disk under ${dir} is free (the alert is below ${limit}%). The database and the backups need room: remove old files or grow the disk.`,
  };
}

/** The share of the disk under `dir` that an unprivileged process may still write. */
export async function freeDiskShare(dir: string): Promise<number> {
  const stats = await fs.statfs(dir);
  return stats.blocks === 0 ? 1 : stats.bavail / stats.blocks;
}

async function nearestExisting(dir: string): Promise<string> {
  let current = path.resolve(dir);
  for (;;) {
    const exists = await fs.stat(current).then(
      () => true,
      () => false,
    );
    const parent = path.dirname(current);
    if (exists || parent === current) return current;
    current = parent;
  }
}
