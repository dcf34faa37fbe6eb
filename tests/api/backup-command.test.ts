import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir } from "#server/platform/db/data-dir-lock.js";
import { freePort, startEmbeddedPostgres } from "#server/platform/db/embedded.js";
import { ensureDatabase } from "#server/platform/db/open.js";
import { prepareDatabase } from "#server/platform/db/setup.js";
import { seedCatalog } from "#server/seed/seed.js";
import { backupCommand as command, createEmptyDatabase } from "../helpers/backup.js";

describe("npm run backup and npm run restore on the embedded PostgreSQL", () => {
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-backup-cli-"));
    await fs.chmod(dataDir, 0o755);
    port = await freePort();
    // A shop's data directory: the embedded cluster with the shop's database, migrated and seeded, then stopped.
    const embedded = await startEmbeddedPostgres({ dataDir, preferredPort: port });
    await ensureDatabase(embedded.url("postgres"), "shop");
    await prepareDatabase(embedded.url("shop"), { seed: seedCatalog });
    await embedded.stop();
  }, 120_000);
  afterAll(async () => {
    if (existsSync(path.join(dataDir, "postgres", "postmaster.pid"))) {
      const embedded = await startEmbeddedPostgres({ dataDir, preferredPort: port });
      await embedded.stop();
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const running = () => existsSync(path.join(dataDir, "postgres", "postmaster.pid"));
  const env = () => ({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) });

  it("with no shop running: starts the database, backs up into BACKUP_DIR, and stops it again", async () => {
    expect(running()).toBe(false);
    const { stdout } = await command("backup", [], env());
    const file = stdout.trim().split("\n").at(-1) ?? "";
    expect(stdout).toMatch(/^Backed up \d+ rows of \d+ tables/);
    expect(path.dirname(file)).toBe(path.join(dataDir, "backups"));
    expect(file).toMatch(/shop-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.backup\.gz$/);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(running()).toBe(false);
  }, 120_000);

  it("beside a running shop's database: backs up and leaves it running; restore refuses to go under it", async () => {
    // A running shop: DATA_DIR's lock held by a live process (this one) and its PostgreSQL up.
    const shop = await lockDataDir(dataDir, { shop: true });
    const embedded = await startEmbeddedPostgres({ dataDir, preferredPort: port });
    try {
      const { stdout } = await command("backup", ["--dir", path.join(dataDir, "elsewhere")], env());
      const file = stdout.trim().split("\n").at(-1) ?? "";
      expect(path.dirname(file)).toBe(path.join(dataDir, "elsewhere"));
      expect(running()).toBe(true);
      const client = new pg.Client({ connectionString: embedded.url("shop") });
      await client.connect();
      try {
        const { rows } = await client.query<{ trigger: string; file: string }>("select trigger, file from backup_runs");
        expect(rows).toContainEqual({ trigger: "command", file });
      } finally {
        await client.end();
      }

      const refused = await command("restore", [file], env()).catch((error: { code: number; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 1 });
      expect((refused as { stderr: string }).stderr).toContain("A shop is running on the embedded PostgreSQL");
      expect(running()).toBe(true);

      // Into an empty database elsewhere (the test server): restored; into this one again: refused.
      const target = await createEmptyDatabase();
      const restored = await command("restore", [file, "--database-url", target], env());
      expect(restored.stdout).toMatch(/^Restored \d+ rows of \d+ tables/);
      const again = await command("restore", [file, "--database-url", target], env()).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(again).toMatchObject({ code: 1 });
      expect((again as { stderr: string }).stderr).toMatch(/already holds data \(.+\); nothing was changed/);
    } finally {
      await embedded.stop();
      if (shop.role === "owner") await shop.release();
    }
  }, 180_000);

  it("says what it needs when the file is missing or not a backup", async () => {
    const missing = await command(
      "restore",
      [path.join(dataDir, "nope.backup.gz"), "--database-url", "postgres://127.0.0.1:1/x"],
      env(),
    ).catch((error: { code: number; stderr: string }) => error);
    expect(missing).toMatchObject({ code: 1 });
    expect((missing as { stderr: string }).stderr).toContain("No backup file at");
    const usage = await command("restore", [], env()).catch((error: { code: number; stdout: string }) => error);
    expect(usage).toMatchObject({ code: 1 });
    expect((usage as { stdout: string }).stdout).toContain("Usage: npm run restore -- <file>");
  }, 60_000);
});
