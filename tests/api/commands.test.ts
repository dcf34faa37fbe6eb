import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, findCommand } from "#server/cli/main.js";
import { describeDatabase } from "#server/platform/db/open.js";
import { createTestDatabase } from "../helpers/app.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `snug-and-dry <command>` from the sources, with only the settings given (no .env: another folder). */
async function snugAndDry(args: string[], env: Record<string, string>, cwd: string): Promise<Outcome> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !["DATABASE_URL", "BACKUP_DIR", "DATA_DIR"].includes(key)),
  );
  try {
    const { stdout, stderr } = await run(TSX, [path.join(ROOT, "src/server/cli/main.ts"), ...args], {
      cwd,
      env: { ...clean, LOG_LEVEL: "silent", ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("snug-and-dry <command>", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), "shop-commands-"));
  });
  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });

  it("lists every command of package.json's scripts with --help", async () => {
    const help = await snugAndDry(["--help"], {}, scratch);
    expect(help.code).toBe(0);
    const scripts = JSON.parse(await fs.readFile(path.join(ROOT, "package.json"), "utf8")).scripts as Record<
      string,
      string
    >;
    for (const name of Object.keys(COMMANDS)) {
      expect(help.stdout).toContain(`  ${name} `);
      // The same file in a clone (npm run, with tsx) and in a release (dist/server/cli/<file>.js).
      expect(scripts[name]).toBe(`tsx src/server/cli/${COMMANDS[name]?.file}.ts`);
    }
    expect(findCommand("admin-create")).toBe(COMMANDS["admin:create"]);
    const unknown = await snugAndDry(["backpu"], {}, scratch);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No command "backpu"');
  }, 60_000);

  it.each([
    ["backup", []],
    ["retention", []],
    ["seed:orders", ["--orders", "5"]],
    ["seed:products", ["--products", "5"]],
    ["admin:create", ["--promote", "--username", "someone", "--email", "someone@example.co.za"]],
  ])(
    "%s refuses a data directory that holds no shop, and creates nothing there",
    async (name, args) => {
      const dataDir = path.join(scratch, `empty-${name.replace(":", "-")}`);
      const refused = await snugAndDry([name, ...args], { DATA_DIR: dataDir }, scratch);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain(`There is no shop's database in DATA_DIR=${dataDir}`);
      expect(refused.stderr).toContain("only restore creates a new database");
      expect(existsSync(dataDir)).toBe(false);
    },
    60_000,
  );

  it("says which database it works on before it acts: host, database and port, never the password", async () => {
    const databaseUrl = await createTestDatabase();
    const url = new URL(databaseUrl);
    const done = await snugAndDry(["retention"], { DATABASE_URL: databaseUrl }, scratch);
    expect(done.code, done.stderr).toBe(0);
    const said = `Database: PostgreSQL at ${url.hostname}, database ${url.pathname.slice(1)}, port ${url.port || "5432"} (DATABASE_URL)`;
    expect(done.stderr).toContain(said);
    expect(done.stdout).toMatch(/^Retention \(\d+ years/);

    const withPassword = "postgres://shop:s3cret-Pa55@db.example.co.za:6543/shop_live";
    expect(describeDatabase(withPassword)).toBe(
      "PostgreSQL at db.example.co.za, database shop_live, port 6543 (DATABASE_URL)",
    );
    expect(describeDatabase("postgres://postgres:pw@127.0.0.1:5433/shop", "/srv/shop/data")).toBe(
      "the embedded PostgreSQL in DATA_DIR=/srv/shop/data, database shop, port 5433",
    );
  }, 60_000);
});
