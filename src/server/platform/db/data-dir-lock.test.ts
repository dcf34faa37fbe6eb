import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DataDirHolder, DataDirInUseError, LOCK_FILE, lockDataDir } from "./data-dir-lock.js";

let scratch: string;
let sleeper: ChildProcess;
/** A node process that is alive for the whole file, to stand for another shop or command. */
let livePid: number;
/** A pid that no process has any more. */
let deadPid: number;

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), "shop-lock-"));
  sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], { stdio: "ignore" });
  livePid = sleeper.pid as number;
  const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  deadPid = gone.pid as number;
  await new Promise((resolve) => gone.once("exit", resolve));
});
afterAll(async () => {
  sleeper.kill();
  await fs.rm(scratch, { recursive: true, force: true });
});

async function dirHeldBy(holder: Partial<DataDirHolder> | string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(scratch, "data-"));
  const text =
    typeof holder === "string"
      ? holder
      : JSON.stringify({
          command: "node dist/server/main.js",
          since: "2026-11-26T08:00:00.000Z",
          shop: true,
          ...holder,
        });
  await fs.writeFile(path.join(dir, LOCK_FILE), text);
  return dir;
}

const holderOf = async (dir: string) =>
  JSON.parse(await fs.readFile(path.join(dir, LOCK_FILE), "utf8")) as DataDirHolder;

describe("DATA_DIR's lock", () => {
  it("is taken by the first shop, names it, and goes when it releases", async () => {
    const dir = path.join(scratch, "fresh");
    const lock = await lockDataDir(dir, { shop: true });
    expect(lock.role).toBe("owner");
    expect(await holderOf(dir)).toMatchObject({ pid: process.pid, shop: true });
    if (lock.role === "owner") await lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it("refuses a second shop while the first runs, naming its pid and command, and leaves its lock alone", async () => {
    const dir = await dirHeldBy({ pid: livePid });
    const refusal = await lockDataDir(dir, { shop: true }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DataDirInUseError);
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `DATA_DIR .* is in use by another shop: pid ${livePid} \\(node dist/server/main\\.js\\), running since 2026-11-26T08:00:00\\.000Z.*kill -TERM ${livePid}`,
      ),
    );
    expect((await holderOf(dir)).pid).toBe(livePid);
  });

  it("lets a command beside a running shop in as a guest, which cannot release the shop's lock", async () => {
    const dir = await dirHeldBy({ pid: livePid });
    const lock = await lockDataDir(dir, { shop: false });
    expect(lock).toEqual({ role: "guest", holder: expect.objectContaining({ pid: livePid, shop: true }) });
    expect((await holderOf(dir)).pid).toBe(livePid);
  });

  it("refuses a shop and a command while a command holds it: that command will stop the database", async () => {
    const dir = await dirHeldBy({
      pid: livePid,
      shop: false,
      command: "src/server/cli/seed-orders.ts --orders 200000",
    });
    for (const shop of [true, false]) {
      await expect(lockDataDir(dir, { shop })).rejects.toThrow(
        /in use by a command: pid \d+ \(src\/server\/cli\/seed-orders\.ts --orders 200000\).*wait for it to finish/,
      );
    }
  });

  it.each<[string, Partial<DataDirHolder> | string]>([
    ["a process that is gone (a crash)", { pid: -1 }],
    ["a pid no process has", { pid: 0 }],
    ["this process's own pid (a container restarted as the same pid)", { pid: process.pid }],
    ["a half-written file", '{"pid":'],
  ])("takes over a lock left by %s, saying so", async (_name, holder) => {
    const dir = await dirHeldBy(
      typeof holder === "string" ? holder : { ...holder, pid: holder.pid === -1 ? deadPid : holder.pid },
    );
    const lines: string[] = [];
    const lock = await lockDataDir(dir, { shop: true, log: (line) => lines.push(line) });
    expect(lock.role).toBe("owner");
    expect(lines.join("\n")).toMatch(/Taking over .*shop\.lock/);
    expect(await holderOf(dir)).toMatchObject({ pid: process.pid, shop: true });
  });

  it("takes over for a command when the shop that held it is gone", async () => {
    const dir = await dirHeldBy({ pid: deadPid });
    const lock = await lockDataDir(dir, { shop: false });
    expect(lock.role).toBe("owner");
    expect(await holderOf(dir)).toMatchObject({ pid: process.pid, shop: false });
  });

  it("never releases a lock that another process has taken since", async () => {
    const dir = path.join(scratch, "taken-since");
    const lock = await lockDataDir(dir, { shop: true });
    await fs.writeFile(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: livePid, shop: true, command: "x", since: "y" }),
    );
    if (lock.role === "owner") await lock.release();
    expect((await holderOf(dir)).pid).toBe(livePid);
  });
});
