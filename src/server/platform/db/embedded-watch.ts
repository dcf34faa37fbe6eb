import type { EmbeddedPostgres } from "./embedded.js";

/**
 * "up": the postmaster runs. "restarting": it was found gone and is being started again (crash
 * recovery from the WAL). "failing": a restart has failed and the next is being tried; the shop
 * exits once `giveUpAfterMs` have passed since it was found gone.
 */
export type EmbeddedState = "up" | "restarting" | "failing";

export interface EmbeddedWatch {
  state: () => EmbeddedState;
  /** Stops watching (before the owner stops the server on purpose) and waits for a check under way. */
  stop: () => Promise<void>;
}

export interface WatchOptions {
  log: (line: string) => void;
  /** Called once when the server could not be brought back within `giveUpAfterMs`: the shop exits. */
  onLost: (reason: string) => void;
  intervalMs?: number;
  giveUpAfterMs?: number;
}

/**
 * The shop watches the embedded PostgreSQL it owns (docs/operations.md, "The embedded database
 * heals"): the OOM killer on a small VPS ends the postmaster, and nothing else would start it
 * again, since the shop's process itself lives on. Every `intervalMs` the postmaster's pid is
 * checked; when it is gone, pg_ctl starts the server again on the same port, and PostgreSQL's
 * crash recovery replays the WAL, so every committed order is there. If it is not back within
 * `giveUpAfterMs`, `onLost` ends the shop with a non-zero code, for systemd or Docker to restart
 * the whole unit.
 */
export function watchEmbeddedPostgres(
  server: Pick<EmbeddedPostgres, "isRunning" | "restart">,
  { log, onLost, intervalMs = 1_000, giveUpAfterMs = 30_000 }: WatchOptions,
): EmbeddedWatch {
  let state: EmbeddedState = "up";
  let stopped = false;
  let checking: Promise<void> = Promise.resolve();

  const bringBack = async () => {
    const goneAt = Date.now();
    state = "restarting";
    log("The embedded PostgreSQL has stopped: starting it again (crash recovery)");
    for (let attempt = 1; !stopped; attempt++) {
      const left = giveUpAfterMs - (Date.now() - goneAt);
      if (left <= 0) break;
      try {
        await server.restart(Math.max(1, Math.floor(left / 1_000)));
        state = "up";
        log(`The embedded PostgreSQL is running again after ${Date.now() - goneAt} ms (attempt ${attempt})`);
        return;
      } catch (error) {
        state = "failing";
        log(`Restarting the embedded PostgreSQL failed (attempt ${attempt}): ${(error as Error).message}`);
        // Backends orphaned by a killed postmaster hold its shared memory for a moment.
        if (!(await server.isRunning())) await new Promise((resolve) => setTimeout(resolve, 500));
        else {
          state = "up";
          return;
        }
      }
    }
    if (stopped) return;
    const reason = `The embedded PostgreSQL could not be started again within ${giveUpAfterMs / 1_000} s`;
    log(reason);
    onLost(reason);
  };

  const timer = setInterval(() => {
    checking = checking.then(async () => {
      if (stopped || state !== "up") return;
      if (!(await server.isRunning())) await bringBack();
    });
  }, intervalMs);
  timer.unref();

  return {
    state: () => state,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await checking;
    },
  };
}
