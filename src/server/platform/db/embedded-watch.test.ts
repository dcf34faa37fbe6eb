import { describe, expect, it } from "vitest";
import { watchEmbeddedPostgres } from "./embedded-watch.js";

/** A server whose life the test decides: `alive` is what postmaster.pid's process would say. */
function server({ restartFailures = 0 } = {}) {
  const state = { alive: true, restarts: 0, failuresLeft: restartFailures };
  return {
    state,
    isRunning: async () => state.alive,
    restart: async (_timeoutSeconds: number) => {
      state.restarts++;
      if (state.failuresLeft > 0) {
        state.failuresLeft--;
        throw new Error("pg_ctl start failed (1): could not bind IPv4 address");
      }
      state.alive = true;
    },
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, ms = 2_000) {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await wait(5);
  return condition();
}

describe("watching the embedded PostgreSQL", () => {
  it("starts a server that died again, and does nothing while it runs", async () => {
    const pg = server();
    const lost: string[] = [];
    const watch = watchEmbeddedPostgres(pg, { log: () => {}, onLost: (why) => lost.push(why), intervalMs: 10 });
    await wait(60);
    expect(pg.state.restarts).toBe(0);
    pg.state.alive = false;
    expect(await until(() => pg.state.restarts === 1 && watch.state() === "up")).toBe(true);
    expect(pg.state.alive).toBe(true);
    await watch.stop();
    expect(lost).toEqual([]);
  });

  it("says failing after a failed restart, and comes back up when a later one works", async () => {
    const pg = server({ restartFailures: 2 });
    const states = new Set<string>();
    const watch = watchEmbeddedPostgres(pg, { log: () => {}, onLost: () => {}, intervalMs: 10, giveUpAfterMs: 5_000 });
    pg.state.alive = false;
    const seen = setInterval(() => states.add(watch.state()), 1);
    expect(await until(() => pg.state.restarts === 3 && watch.state() === "up", 4_000)).toBe(true);
    clearInterval(seen);
    expect(states.has("failing")).toBe(true);
    await watch.stop();
  });

  it("gives up once the server stays down past the limit, and tells the shop once", async () => {
    const pg = server({ restartFailures: 1_000 });
    const lost: string[] = [];
    const watch = watchEmbeddedPostgres(pg, {
      log: () => {},
      onLost: (why) => lost.push(why),
      intervalMs: 10,
      giveUpAfterMs: 1_200,
    });
    const diedAt = Date.now();
    pg.state.alive = false;
    expect(await until(() => lost.length > 0, 4_000)).toBe(true);
    expect(Date.now() - diedAt).toBeGreaterThanOrEqual(1_200);
    expect(lost).toEqual(["The embedded PostgreSQL could not be started again within 1.2 s"]);
    expect(watch.state()).toBe("failing");
    await wait(100);
    expect(lost).toHaveLength(1);
    await watch.stop();
  });

  it("starts nothing once stopped, as when the shop stops its server on purpose", async () => {
    const pg = server();
    const watch = watchEmbeddedPostgres(pg, { log: () => {}, onLost: () => {}, intervalMs: 10 });
    await watch.stop();
    pg.state.alive = false;
    await wait(60);
    expect(pg.state.restarts).toBe(0);
  });
});
