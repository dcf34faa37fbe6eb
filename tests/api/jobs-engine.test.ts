import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { JobsEngine } from "#server/platform/jobs/engine.js";
import { createTestDatabase } from "../helpers/app.js";

// Two instances of the shop each run the jobs engine on one database: a recurring job must run
// again and again, but never in both at once.
let pools: pg.Pool[];
beforeAll(async () => {
  const url = await createTestDatabase();
  pools = [new pg.Pool({ connectionString: url, max: 4 }), new pg.Pool({ connectionString: url, max: 4 })];
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

it("runs a recurring job in one instance at a time, over and over, and stops cleanly", async () => {
  let running = 0;
  let mostAtOnce = 0;
  const runsBy = [0, 0];
  const engines = pools.map(
    (pool, instance) =>
      new JobsEngine(pool, pino({ level: "silent" }), [
        {
          name: "test-sweep",
          everyMs: 200,
          run: async () => {
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            runsBy[instance] = (runsBy[instance] ?? 0) + 1;
            await new Promise((resolve) => setTimeout(resolve, 300));
            running -= 1;
          },
        },
      ]),
  );
  for (const engine of engines) engine.start();
  await Promise.all(engines.map((engine) => engine.started()));
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  await Promise.all(engines.map((engine) => engine.stop()));

  expect(mostAtOnce).toBe(1);
  expect((runsBy[0] ?? 0) + (runsBy[1] ?? 0)).toBeGreaterThanOrEqual(4);
  // Stopped means stopped: no run starts afterwards, and none was left half done.
  const after = [...runsBy];
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(runsBy).toEqual(after);
  expect(running).toBe(0);
});

it("starts once PostgreSQL is reachable, and can be stopped while it waits", async () => {
  const down = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 200 });
  const engine = new JobsEngine(down, pino({ level: "silent" }), [
    { name: "never", everyMs: 100, run: async () => {} },
  ]);
  engine.start();
  const stopped = Date.now();
  await engine.stop();
  expect(Date.now() - stopped).toBeLessThan(2_000);
  await down.end();
});

it("runs a daily job once shortly after start (firstRunAfterMs), without waiting a day", async () => {
  let runs = 0;
  const engine = new JobsEngine(pools[0] as pg.Pool, pino({ level: "silent" }), [
    {
      name: "test-daily",
      everyMs: 86_400_000,
      firstRunAfterMs: 300,
      run: async () => {
        runs += 1;
      },
    },
  ]);
  engine.start();
  await engine.started();
  const deadline = Date.now() + 10_000;
  while (runs === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await engine.stop();
  expect(runs).toBe(1);
});

it("lets a job fetched while it stops be marked done before the pool may be ended", async () => {
  // pg-boss marks a job done without awaiting it, a few steps after the fetch that brought it.
  // Here that fetch is held until stop() has begun: stop() must not resolve before the job is
  // marked done, or the pool ends under pg-boss (an unhandled rejection) and the job stays active.
  const url = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let fetched = () => {};
  const jobFetched = new Promise<void>((resolve) => {
    fetched = resolve;
  });
  Object.assign(pool, {
    query: async (text: string, values?: unknown[]) => {
      const result = await query(text, values);
      if (typeof text === "string" && text.includes("SKIP LOCKED") && result.rows.length > 0) {
        fetched();
        await released;
      }
      return result;
    },
  });
  let runs = 0;
  const engine = new JobsEngine(pool, pino({ level: "silent" }), [
    {
      name: "test-held",
      everyMs: 86_400_000,
      run: async () => {
        runs += 1;
      },
    },
  ]);
  engine.start();
  await engine.started();
  await engine.request("test-held");
  await jobFetched;

  const stopping = engine.stop();
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await stopping;

  const { rows } = await query("select state from pgboss.job where name = 'test-held'");
  expect(rows).toEqual([{ state: "completed" }]);
  // A stopped engine starts no run: the next request, here or in another instance, does the work.
  expect(runs).toBe(0);
  await pool.end();
});
