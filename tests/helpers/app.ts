import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { isErrorCode } from "#domain/error-codes.js";
import { type App, type AppDependencies, buildApp } from "#server/app.js";
import { loadConfig } from "#server/platform/config.js";
import { createDatabase, type Database } from "#server/platform/db/client.js";
import { jobLockKey } from "#server/platform/jobs/engine.js";
import { withDatabase } from "../setup/global-db.js";

/** TOTP_ENCRYPTION_KEY of the test apps: 32 bytes, base64. */
export const TEST_TOTP_KEY = Buffer.alloc(32, 7).toString("base64");

export interface TestApp {
  app: App;
  db: Database;
  pool: pg.Pool;
  databaseUrl: string;
  /** MAIL_CAPTURE_DIR: captured messages in full, reset links included (capturedText reads one). */
  captureDir: string;
  close: () => Promise<void>;
}

/**
 * A captured message in full as the shop wrote it to MAIL_CAPTURE_DIR (headers, then the plain
 * text). The jobs engine may hold the message's lease and be writing it at the moment the test's
 * own `deliverDue` skips it, so a file not there yet is waited for, up to 10 s.
 */
export async function capturedText(t: Pick<TestApp, "captureDir">, emailId: number | string): Promise<string> {
  const file = path.join(t.captureDir, `${emailId}.txt`);
  for (let waited = 0; ; waited += 50) {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || waited >= 10_000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Makes `app.inject` fail the test at once when a non-2xx JSON answer has no valid `code`
 * (docs/api-errors.md). The emulators answer in their vendors' formats (PayFast's API, the couriers').
 */
export function checkErrorAnswers(app: App): void {
  const send = app.inject.bind(app) as (...args: unknown[]) => unknown;
  app.inject = ((...args: unknown[]) => {
    const answer = send(...args);
    // Without options inject returns a chain to build the request on; with a callback, nothing.
    if (args.length === 0 || typeof args[1] === "function") return answer;
    return Promise.resolve(answer as ReturnType<App["inject"]>).then((response) => {
      const url = response.raw.req.url ?? "";
      const json = String(response.headers["content-type"] ?? "").includes("json");
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      if (
        ok ||
        !json ||
        response.body === "" ||
        url.startsWith("/payfast-emulator/") ||
        url.startsWith("/courier-emulator/")
      )
        return response;
      let code: unknown;
      try {
        code = (JSON.parse(response.body) as { code?: unknown }).code;
      } catch {}
      if (!isErrorCode(code)) {
        throw new Error(
          `${response.raw.req.method} ${url} answered ${response.statusCode} without a valid error code: ${response.body}`,
        );
      }
      return response;
    });
  }) as App["inject"];
}

/** A fresh database for one test file, copied from the run's migrated and seeded template. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject("pgAdminUrl");
  const template = inject("pgTemplate");
  const name = `shop_test_${process.env.SHOP_TEST_RUN_ID ?? "x"}_${randomBytes(5).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // CREATE DATABASE ... TEMPLATE needs the template to have no other connections; retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${template}"`);
        break;
      } catch (error) {
        if (attempt > 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/**
 * Builds the real app on a fresh database, as main.ts does, with test-friendly settings.
 * `env` overrides any environment variable the config reads.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  dependencies: Pick<AppDependencies, "resolvePayfastHost" | "pageRenderer" | "payfastApi" | "logger" | "clock"> = {},
  /** Another app's database: a second instance of the shop on the same data. */
  sharedDatabaseUrl?: string,
  /** Connections in the app's pool: more for a test that sends dozens of requests at once. */
  poolSize = 5,
): Promise<TestApp> {
  const databaseUrl = sharedDatabaseUrl ?? (await createTestDatabase());
  const captureDir = await mkdtemp(path.join(tmpdir(), "shop-mail-"));
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://localhost:3000",
    SERVE_STATIC: "false",
    // Every inject comes from 127.0.0.1: tests that sign in many users must not hit the login
    // rate limit. The rate limit's own tests set it back with AUTH_RATE_LIMIT_PER_MINUTE.
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    // Likewise wrong passwords on one account and reset requests a day from one network
    // (login-rate-limit-keys.test.ts and password-reset.test.ts set them back).
    LOGIN_FAILURES_PER_ACCOUNT: "1000",
    RESETS_PER_NETWORK_PER_DAY: "100000",
    // No daily backup into ./data and no alert checks mailing the owner mid-test; their own tests turn them on.
    BACKUP_EVERY_HOURS: "0",
    ALERT_CHECK_MINUTES: "0",
    // Likewise the order limits: tests that place many orders for one customer keep out of their way.
    // tests/api/order-limits.test.ts sets them back.
    UNPAID_ORDERS_PER_ACCOUNT: "1000",
    UNPAID_ORDERS_PER_ADDRESS: "100000",
    ORDER_RATE_LIMIT_PER_MINUTE: "100000",
    MAIL_CAPTURE_DIR: captureDir,
    // Uploaded photos' renditions: removed with the capture folder when the test's app closes.
    MEDIA_DIR: path.join(captureDir, "media"),
    // One key for every test app, so two apps on one database open each other's TOTP secrets (and no
    // key file is made in ./data); tests/api/two-factor.test.ts checks the key file and the rotation.
    TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY,
    ...env,
  });
  const { db, pool } = createDatabase(databaseUrl, poolSize);
  const app = await buildApp({ config, db, pool, databaseUrl, ...dependencies });
  checkErrorAnswers(app);
  await app.ready();
  return {
    app,
    db,
    pool,
    databaseUrl,
    captureDir,
    close: async () => {
      await app.close();
      await pool.end();
      await rm(captureDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `during` while a recurring job cannot run: the test holds the advisory lock every run
 * takes (src/server/platform/jobs/engine.ts), so a run that starts meanwhile finds it taken and does
 * nothing, as when another instance is running it.
 */
export async function withJobHeld<T>(t: Pick<TestApp, "pool">, jobName: string, during: () => Promise<T>): Promise<T> {
  const client = await t.pool.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext($1))", [jobLockKey(jobName)]);
    try {
      return await during();
    } finally {
      await client.query("select pg_advisory_unlock(hashtext($1))", [jobLockKey(jobName)]);
    }
  } finally {
    client.release();
  }
}
