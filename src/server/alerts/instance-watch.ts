import type { FastifyBaseLogger } from "fastify";
import { isDatabaseDown } from "../platform/errors.js";
import { type AlertContext, raiseAlert, resolveAlert } from "./alerts.js";

/** This instance's clock may differ from the database's by this much before the owner is told. */
export const CLOCK_SKEW_LIMIT_MS = 30_000;
/** A reading whose query took longer than this says too little about the clocks to judge. */
const CLOCK_READING_MAX_ROUND_TRIP_MS = 5_000;
/**
 * The jobs engine seen down at this many looks in a row (every ALERT_CHECK_MINUTES: two minutes by
 * default, so a start or a database restart is no alert) is one.
 */
export const JOBS_ENGINE_DOWN_LOOKS = 3;

export interface InstanceWatchContext extends AlertContext {
  /** This instance, in its alerts' keys: host name and port (two instances on one machine differ by port). */
  instance: string;
  /** Whether this instance's jobs engine runs (platform/jobs/engine.ts). */
  jobsRunning: () => boolean;
  /** This process's clock in milliseconds (Date.now; tests move it). */
  now: () => number;
  log: Pick<FastifyBaseLogger, "warn">;
}

export interface InstanceWatch {
  /** One look at this instance now: what was raised and resolved. */
  check: () => Promise<{ raised: string[]; resolved: string[] }>;
  start: (everyMs: number) => void;
  stop: () => void;
}

/**
 * The checks each instance makes of itself, on a timer of its own rather than as a pg-boss job: the
 * jobs engine cannot report its own absence, and only this process can compare its clock with the
 * database's. TOTP codes, PayFast's signatures and order expiry all read the clock; a clock more
 * than CLOCK_SKEW_LIMIT_MS from the database's, and a jobs engine down at JOBS_ENGINE_DOWN_LOOKS looks in a row,
 * are each one alert (keys `clock-skew:<instance>`, `jobs-engine:<instance>`), resolved when gone.
 */
export function instanceWatch(context: InstanceWatchContext): InstanceWatch {
  let jobsDownLooks = 0;
  let timer: NodeJS.Timeout | null = null;
  const clockKey = `clock-skew:${context.instance}`;
  const jobsKey = `jobs-engine:${context.instance}`;

  const settle = async (key: string, problem: { title: string; detail: string } | null, outcome: Outcome) => {
    if (problem) {
      if (await raiseAlert(context, key, problem)) outcome.raised.push(key);
    } else if (await resolveAlert(context, key)) outcome.resolved.push(key);
  };

  const check = async () => {
    const outcome: Outcome = { raised: [], resolved: [] };
    const skew = await clockSkewMs(context);
    if (skew !== null) await settle(clockKey, clockProblem(context.instance, skew), outcome);
    jobsDownLooks = context.jobsRunning() ? 0 : jobsDownLooks + 1;
    await settle(jobsKey, jobsDownLooks >= JOBS_ENGINE_DOWN_LOOKS ? jobsProblem(context.instance) : null, outcome);
    return outcome;
  };

  return {
    check,
    start: (everyMs) => {
      timer = setInterval(() => {
        check().then(
          ({ raised, resolved }) => {
            if (raised.length > 0 || resolved.length > 0)
              context.log.warn({ raised, resolved }, "owner alerts changed");
          },
          (error: unknown) => {
            // The database away: nothing to compare with and nowhere to write; the next look tries again.
            if (!isDatabaseDown(error)) context.log.warn({ err: error }, "instance checks failed");
          },
        );
      }, everyMs);
      timer.unref();
    },
    stop: () => {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

interface Outcome {
  raised: string[];
  resolved: string[];
}

/**
 * This clock minus the database's, in milliseconds, against the middle of the query's round trip;
 * null when the round trip took too long to tell.
 */
async function clockSkewMs({ pool, now }: InstanceWatchContext): Promise<number | null> {
  const sent = now();
  const { rows } = await pool.query<{ ms: string }>(
    "select (extract(epoch from clock_timestamp()) * 1000)::bigint::text as ms",
  );
  const answered = now();
  if (answered - sent > CLOCK_READING_MAX_ROUND_TRIP_MS || !rows[0]) return null;
  return (sent + answered) / 2 - Number(rows[0].ms);
}

function clockProblem(instance: string, skewMs: number) {
  if (Math.abs(skewMs) <= CLOCK_SKEW_LIMIT_MS) return null;
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  return {
    title: "The shop's clock is wrong",
    detail: `The clock of ${instance} is ${seconds} s ${skewMs > 0 ? "ahead of" : "behind"} the database's (the limit is ${CLOCK_SKEW_LIMIT_MS / 1000} s). Admins' two-step codes, PayFast's signed notifications and the expiry of unpaid orders all depend on the time: turn on time synchronisation (NTP: chrony or systemd-timesyncd, "timedatectl status" shows it) on that machine and on the database's.`,
  };
}

function jobsProblem(instance: string) {
  return {
    title: "The shop's background jobs are not running",
    detail: `The jobs engine of ${instance} was not running at the last ${JOBS_ENGINE_DOWN_LOOKS} checks: e-mails, the PayFast reconciliation, order expiry and backups wait for it (another instance may still run them). Shoppers are still served. The shop's log says why ("jobs engine"); restarting that instance usually brings it back.`,
  };
}
