import { setTimeout as delay } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import PgBoss from "pg-boss";

/** Work the shop repeats on its own: a sweep that reads what is due from the database. */
export interface RecurringJob {
  name: string;
  everyMs: number;
  /** Also asks for one run this long after the engine starts (a daily job that should not wait a day). */
  firstRunAfterMs?: number;
  run: () => Promise<void>;
}

/** The advisory lock a run of `jobName` holds (hashtext of this key): one run at a time. */
export const jobLockKey = (jobName: string) => `job:${jobName}`;

/** pg-boss keeps its tables in their own schema of the shop's database (docs/decisions/007). */
export const JOBS_SCHEMA = "pgboss";
const SCHEMA = JOBS_SCHEMA;

/**
 * The shop's background jobs on pg-boss, in the shop's own PostgreSQL (embedded or external),
 * through the app's pool (docs/decisions/007-jobs-on-pg-boss.md).
 *
 * A recurring job is a pg-boss queue with the "short" policy: at most one run waiting, across
 * every instance. Each instance asks for a run every `everyMs` (asking again while one waits
 * changes nothing), whichever instance's worker fetches it runs it, and an advisory lock makes
 * sure only one run works at a time. A sweep keeps no state of its own, so an instance that dies
 * mid-run loses nothing: its lock goes with its connection, and the next run picks the work up.
 */
export class JobsEngine {
  #boss: PgBoss | null = null;
  readonly #timers: NodeJS.Timeout[] = [];
  #starting: Promise<void> | null = null;
  #stopped = false;
  #stopping = new AbortController();
  /** pg-boss's queries still under way: stop() waits for them before the pool may be ended. */
  readonly #queries = new Set<Promise<unknown>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
    private readonly jobs: readonly RecurringJob[],
  ) {}

  /**
   * Starts in the background: the shop serves (and answers 503 where it needs the database) even
   * when PostgreSQL is down at start, and the jobs begin once it is up, trying every few seconds.
   */
  start(): void {
    this.#stopped = false;
    this.#stopping = new AbortController();
    this.#starting = this.#startWhenPossible();
  }

  /** Whether pg-boss has started and the jobs are registered (GET /api/health/ready). */
  get running(): boolean {
    return this.#boss !== null && !this.#stopped;
  }

  /** The recurring jobs' names: their pg-boss queues (the metrics and alerts read them). */
  get names(): string[] {
    return this.jobs.map((job) => job.name);
  }

  /** Resolves once the engine runs (or was stopped before it could); tests wait on it. */
  async started(): Promise<void> {
    await this.#starting;
  }

  async #startWhenPossible(): Promise<void> {
    for (let attempt = 1; !this.#stopped; attempt++) {
      // A PgBoss whose start() failed cannot be started again: each attempt gets a fresh one.
      const boss = new PgBoss({
        db: { executeSql: (text, values) => this.#executeSql(text, values) },
        schema: SCHEMA,
        // Recurring work is asked for by the instances' own timers, not by pg-boss's cron.
        schedule: false,
      });
      boss.on("error", (error) => this.log.error({ err: error }, "jobs engine error"));
      try {
        await boss.start();
        for (const job of this.jobs) await this.#register(boss, job);
        this.#boss = boss;
        this.log.info({ jobs: this.jobs.map((job) => job.name) }, "jobs engine started");
        return;
      } catch (error) {
        this.log.error({ err: error, attempt }, "jobs engine could not start; trying again in 5 s");
        await boss.stop({ graceful: false }).catch(() => {});
        this.#boss = null;
        await delay(5_000, undefined, { signal: this.#stopping.signal, ref: false }).catch(() => {});
      }
    }
  }

  async #register(boss: PgBoss, job: RecurringJob): Promise<void> {
    const queue = {
      name: job.name,
      // One run waiting at most, however many instances ask.
      policy: "short" as const,
      // A failed sweep is not retried: the next run does the same work.
      retryLimit: 0,
      expireInSeconds: 15 * 60,
    };
    await boss.createQueue(job.name, queue);
    // A queue made by an earlier version keeps its old options unless told.
    await boss.updateQueue(job.name, queue);
    const pollingIntervalSeconds = Math.min(2, Math.max(0.5, job.everyMs / 4000));
    await boss.work(job.name, { pollingIntervalSeconds }, async () => {
      // A fetch already under way when stop() began still hands its job over: a stopped engine
      // starts no run (the next instance, or this one after a restart, does the work).
      if (this.#stopped) return;
      await this.#runAlone(job);
    });
    const timer = setInterval(() => void this.request(job.name), job.everyMs);
    timer.unref();
    this.#timers.push(timer);
    if (job.firstRunAfterMs !== undefined) {
      const first = setTimeout(() => void this.request(job.name), job.firstRunAfterMs);
      first.unref();
      this.#timers.push(first);
    }
  }

  /**
   * Runs a job under a PostgreSQL advisory lock named after it, held by one connection for the
   * run: a second run (in this instance or another) finds it taken and does nothing. A process
   * that dies mid-run loses its connection and with it the lock, so the next run is not held up.
   */
  async #runAlone(job: RecurringJob): Promise<void> {
    const client = await this.pool.connect();
    const key = jobLockKey(job.name);
    try {
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtext($1)) as locked", [
        key,
      ]);
      if (!rows[0]?.locked) return;
      try {
        await job.run();
      } finally {
        await client.query("select pg_advisory_unlock(hashtext($1))", [key]);
      }
    } finally {
      client.release();
    }
  }

  #executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    const query = this.pool.query(text, values);
    this.#queries.add(query);
    const forget = () => this.#queries.delete(query);
    query.then(forget, forget);
    return query;
  }

  /**
   * Waits until pg-boss has no query under way, across a turn of the event loop. pg-boss 10
   * marks a job done without awaiting it (manager.js work(): `this.complete(...)`), a few promise
   * steps after the fetch that brought the job resolves, and its graceful stop() does not wait
   * for a fetch still in flight. Ending the pool before that completion ran made it an unhandled
   * rejection ("Cannot use a pool after calling end on the pool") and left the job active.
   */
  async #queriesSettled(deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      if (this.#queries.size > 0) await Promise.allSettled([...this.#queries]);
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#queries.size === 0) return;
    }
    this.log.warn({ queries: this.#queries.size }, "jobs engine stopped with queries still under way");
  }

  /** Asks for a run of a job; a run already waiting makes this a no-op. */
  async request(name: string): Promise<void> {
    try {
      await this.#boss?.send(name, {});
    } catch (error) {
      this.log.error({ err: error, job: name }, "could not queue a job run");
    }
  }

  /**
   * Stops asking for runs and waits (up to 10 s) for the runs in progress to finish, and for
   * pg-boss's own queries, so that the pool can be ended once this resolves.
   */
  async stop(): Promise<void> {
    const deadline = Date.now() + 12_000;
    this.#stopped = true;
    this.#stopping.abort();
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.length = 0;
    await this.#starting;
    const boss = this.#boss;
    this.#boss = null;
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    await this.#queriesSettled(deadline);
  }
}
