import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";

/**
 * Runs a periodic job in every instance, but only one at a time across instances: each run takes
 * a PostgreSQL advisory lock named after the job and skips when another instance holds it. A
 * periodic sweep keeps no state of its own (it reads what is due from the database), so a process
 * that dies loses nothing: the next run, here or in another instance, picks the work up.
 */
export class PeriodicJob {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = false;

  constructor(
    private readonly options: {
      name: string;
      everyMs: number;
      pool: pg.Pool;
      log: FastifyBaseLogger;
      run: () => Promise<void>;
    },
  ) {}

  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  /** Runs the job now (under the lock); false when another instance was running it. */
  async runOnce(): Promise<boolean> {
    const { name, pool, log, run } = this.options;
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtext($1)) as locked", [
        `job:${name}`,
      ]);
      if (!rows[0]?.locked) return false;
      try {
        await run();
      } finally {
        await client.query("select pg_advisory_unlock(hashtext($1))", [`job:${name}`]);
      }
      return true;
    } catch (error) {
      log.error({ err: error, job: name }, "periodic job failed");
      return false;
    } finally {
      client.release();
    }
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce().then(() => {
        this.#running = null;
        this.#schedule();
      });
    }, this.options.everyMs);
    this.#timer.unref();
  }
}
