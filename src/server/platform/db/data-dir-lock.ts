import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Who uses DATA_DIR's embedded PostgreSQL: DATA_DIR/shop.lock names the process that started it
 * and will stop it. Only one shop may own a data directory: a second one refuses to start, naming
 * the first (it would otherwise adopt the database and, stopping, pull it from under the first).
 * A command (admin:create, seed:orders) beside a running shop connects to the shop's database as
 * a guest and never stops it; with no shop running it owns the directory for its run. A lock whose
 * process is gone (a crash, a power cut) is taken over.
 */
export interface DataDirHolder {
  pid: number;
  /** A shop (it serves requests until stopped), or a one-off command. */
  shop: boolean;
  /** What runs: its command line. */
  command: string;
  /** When it took the lock (ISO 8601). */
  since: string;
}

export type DataDirLock = { role: "owner"; release: () => Promise<void> } | { role: "guest"; holder: DataDirHolder };

export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
}

export const LOCK_FILE = "shop.lock";

/** Whether a process with this pid is running, and is not this one (a container restarts as the same pid). */
export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // After a reboot the pid may belong to something else: on Linux, a lock's process runs node.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node");
  } catch {
    return true;
  }
}

async function readHolder(file: string): Promise<DataDirHolder | null> {
  try {
    const holder = JSON.parse(await fs.readFile(file, "utf8")) as DataDirHolder;
    return typeof holder.pid === "number" ? holder : null;
  } catch {
    return null;
  }
}

export function describeHolder(holder: DataDirHolder): string {
  return `pid ${holder.pid} (${holder.command}), running since ${holder.since}`;
}

/**
 * Takes DATA_DIR for this process, or, for a command beside a running shop, makes it that shop's
 * guest. Refuses (DataDirInUseError) when another live process holds it and this one may not share.
 */
export async function lockDataDir(
  dataDir: string,
  { shop, log = () => {} }: { shop: boolean; log?: (line: string) => void },
): Promise<DataDirLock> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const mine: DataDirHolder = {
    pid: process.pid,
    shop,
    command: process.argv.slice(1).join(" ") || "node",
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, `${JSON.stringify(mine)}\n`, { flag: "wx", mode: 0o644 });
      return { role: "owner", release: () => releaseLock(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(file);
    if (holder && isRunning(holder.pid)) {
      if (holder.shop && !shop) return { role: "guest", holder };
      const what = holder.shop ? "another shop" : "a command";
      const advice = holder.shop
        ? `stop that shop first (Ctrl-C, or kill -TERM ${holder.pid}), or give this shop a DATA_DIR of its own (or a DATABASE_URL)`
        : "wait for it to finish, then start this again";
      throw new DataDirInUseError(
        `DATA_DIR ${dataDir} is in use by ${what}: ${describeHolder(holder)}. Its embedded PostgreSQL belongs to that process: ${advice}.`,
      );
    }
    // Its process is gone: a crash or a power cut left it. (A file half written by a crash reads as null.)
    log(
      holder
        ? `Taking over ${file}: its process (${describeHolder(holder)}) is no longer running`
        : `Taking over ${file}: it names no running process`,
    );
    await fs.rm(file, { force: true });
  }
  throw new DataDirInUseError(`DATA_DIR ${dataDir}: could not take ${file}; another process keeps taking it.`);
}

/** Removes the lock if it is still this process's. */
async function releaseLock(file: string) {
  const holder = await readHolder(file);
  if (holder?.pid === process.pid) await fs.rm(file, { force: true });
}
