import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "shop-refusals-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/**
 * Runs `src/server/main.ts` as `npm run dev` does, with only the given settings, until it exits;
 * from `cwd` (where it looks for .env) when given, the repository otherwise.
 */
function startShop(env: Record<string, string>, cwd = repoRoot): Promise<{ code: number | null; output: string }> {
  const tsx = pathToFileURL(path.join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
  const child = spawn(process.execPath, ["--import", tsx, path.join(repoRoot, "src/server/main.ts")], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? scratch,
      TSX_TSCONFIG_PATH: path.join(repoRoot, "tsconfig.json"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the shop did not exit within 45 s; it printed:\n${output}`));
    }, 45_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Where the shop would keep its data: an external server that does not exist, or an embedded one's new directory. */
type Database = "external" | "embedded";

/**
 * The process-level proof that a refusal stops the shop before it opens either database: one
 * configuration refusal on each kind of database, and the policy files' refusal (read by main.ts,
 * not by loadConfig). Every configuration rule itself is a row of loadConfig's table in
 * src/server/platform/config.test.ts.
 */
describe("the shop refuses to start with an unsafe configuration", () => {
  it.each<[string, Record<string, string>, RegExp, Database]>([
    [
      "live mode without a passphrase",
      {
        PAYFAST_MODE: "live",
        PUBLIC_URL: "https://shop.example.co.za",
        PAYFAST_MERCHANT_ID: "10012345",
        PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
      },
      /PAYFAST_PASSPHRASE: required when PAYFAST_MODE=live/,
      "external",
    ],
    [
      "a policy file with a placeholder the shop does not know",
      { CONTENT_DIR: path.join(repoRoot, "tests/fixtures/content-unknown-placeholder") },
      /terms\.md: unknown placeholder \{\{ownerShoeSize\}\}/,
      "embedded",
    ],
    [
      "test payments on a public address",
      { PUBLIC_URL: "https://shop.example.co.za" },
      /PAYFAST_MODE: local takes no real money.*ALLOW_TEST_PAYMENTS=true/,
      "embedded",
    ],
  ])(
    "refuses %s: it names the setting and exits before opening any database",
    async (_name, unsafe, message, database) => {
      const dataDir = path.join(scratch, `data-${Math.random().toString(36).slice(2)}`);
      const { code, output } = await startShop({
        ...unsafe,
        ...(database === "external" ? { DATABASE_URL: "postgres://shop:never@127.0.0.1:9/never" } : {}),
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: "54399",
        LOG_LEVEL: "silent",
      });
      expect(code, output).toBe(1);
      expect(output).toMatch(message);
      expect(output).toMatch(/^Invalid (configuration|policy content):/m);
      // Reaching either database prints a [db] line or a connection failure; the embedded one
      // would create its directory first.
      expect(output).not.toMatch(/\[db\]|could not start|ECONNREFUSED/);
      expect(existsSync(dataDir)).toBe(false);
    },
    60_000,
  );
});

describe("the shop reads .env from its working directory", () => {
  /** A folder with that .env file, where the shop is started. */
  async function folderWithEnv(text: string): Promise<string> {
    const dir = path.join(scratch, `cwd-${Math.random().toString(36).slice(2)}`);
    await mkdir(dir);
    await writeFile(path.join(dir, ".env"), text);
    return dir;
  }

  it("takes settings from .env: an unsafe one there is refused like one in the environment", async () => {
    const cwd = await folderWithEnv(
      "# the owner's settings\nTRUST_PROXY=true\nDATABASE_URL=postgres://shop:never@127.0.0.1:9/never\n",
    );
    const { code, output } = await startShop({ LOG_LEVEL: "silent" }, cwd);
    expect(code, output).toBe(1);
    expect(output).toMatch(/TRUST_PROXY: true trusts every hop/);
    expect(output).not.toMatch(/\[db\]|could not start|ECONNREFUSED/);
  }, 60_000);

  it("never overrides the real environment with .env", async () => {
    const cwd = await folderWithEnv(
      "PAYFAST_MODE=sandbox\nTRUST_PROXY=true\nPUBLIC_URL=https://shop.example.co.za\nDATABASE_URL=postgres://shop:never@127.0.0.1:9/never\n",
    );
    // The environment's TRUST_PROXY=1 wins over the file's "true"; the file's other lines still count.
    const { code, output } = await startShop({ LOG_LEVEL: "silent", TRUST_PROXY: "1" }, cwd);
    expect(code, output).toBe(1);
    expect(output).toMatch(/PAYFAST_MODE: sandbox takes no real money/);
    expect(output).not.toMatch(/TRUST_PROXY/);
  }, 60_000);

  it("reads a secret from NAME_FILE: a live shop's passphrase file is enough", async () => {
    const passphrase = path.join(scratch, "passphrase");
    await writeFile(passphrase, "a long and secret passphrase\n");
    const { code, output } = await startShop({
      PAYFAST_MODE: "live",
      PUBLIC_URL: "https://shop.example.co.za",
      PAYFAST_MERCHANT_ID: "10012345",
      PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
      PAYFAST_PASSPHRASE_FILE: passphrase,
      // Refused for another reason, so it exits before opening a database: only SMTP_URL is named.
      LOG_LEVEL: "silent",
    });
    expect(code, output).toBe(1);
    expect(output).toMatch(/SMTP_URL: required/);
    expect(output).not.toMatch(/PAYFAST_PASSPHRASE/);
  }, 60_000);
});
