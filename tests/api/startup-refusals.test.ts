import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "shop-refusals-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs `src/server/main.ts` as `npm run dev` does, with only the given settings, until it exits. */
function startShop(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? scratch, ...env },
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
      "test payments on a public address",
      { PUBLIC_URL: "https://shop.example.co.za" },
      /PAYFAST_MODE: local takes no real money.*ALLOW_TEST_PAYMENTS=true/,
      "embedded",
    ],
    ["TRUST_PROXY=true", { TRUST_PROXY: "true" }, /TRUST_PROXY: true trusts every hop/, "external"],
    [
      "live mode writing captured reset links to disk",
      {
        PAYFAST_MODE: "live",
        PUBLIC_URL: "https://shop.example.co.za",
        PAYFAST_MERCHANT_ID: "10012345",
        PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
        PAYFAST_PASSPHRASE: "a-long-passphrase-26",
        MAIL_CAPTURE_DIR: "/tmp/captured",
      },
      /MAIL_CAPTURE_DIR: refused when PAYFAST_MODE=live/,
      "external",
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
      expect(output).toMatch(/^Invalid configuration:/m);
      // Reaching either database prints a [db] line or a connection failure; the embedded one
      // would create its directory first.
      expect(output).not.toMatch(/\[db\]|could not start|ECONNREFUSED/);
      expect(existsSync(dataDir)).toBe(false);
    },
    60_000,
  );
});
