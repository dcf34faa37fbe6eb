import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { freePort, startEmbeddedPostgres } from "#server/platform/db/embedded.js";
import { prepareDatabase } from "#server/platform/db/setup.js";
import { seedCatalog } from "#server/seed/seed.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A URL to the server's maintenance database, for CREATE DATABASE. */
    pgAdminUrl: string;
    /** A migrated and seeded database each test file copies. */
    pgTemplate: string;
  }
}

/**
 * One PostgreSQL for the run: TEST_DATABASE_URL's server when set, otherwise an embedded one in a
 * temporary directory. A migrated, seeded template database is made once; each test file copies it.
 */
export default async function setup(project: TestProject) {
  const runId = randomBytes(4).toString("hex");
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | null = null;
  let dataDir: string | null = null;

  if (!adminUrl) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-test-pg-"));
    await fs.chmod(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
    adminUrl = embedded.url("postgres");
    stop = embedded.stop;
  }

  const template = `shop_template_${runId}`;
  await adminQuery(adminUrl, `create database "${template}"`);
  await prepareDatabase(withDatabase(adminUrl, template), { seed: seedCatalog });
  process.env.SHOP_TEST_RUN_ID = runId;

  project.provide("pgAdminUrl", adminUrl);
  project.provide("pgTemplate", template);

  return async () => {
    if (stop) {
      await stop();
      if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
      return;
    }
    // On an external server, drop what this run made.
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like $1 or datname = $2",
        [`shop_test_${runId}_%`, template],
      );
      for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
    } finally {
      await client.end();
    }
  };
}

export function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
