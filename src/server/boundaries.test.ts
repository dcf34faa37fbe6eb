import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The server's floors (docs/architecture.md): `npm run lint` runs scripts/lint-server-folders.mjs,
 * which fails on an import cycle between folders of src/server. These run it on the real tree and
 * on small trees written to a temporary folder, so the check is seen to fail where it should.
 */
const root = path.resolve(import.meta.dirname, "../..");
const script = path.join(root, "scripts/lint-server-folders.mjs");
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the check on `root` (default: this repository). */
function lintFolders(repository = root) {
  const run = spawnSync(process.execPath, [script, repository], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** A repository holding only the given files under src/server. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "server-folders-"));
  made.push(dir);
  for (const [file, source] of Object.entries(files)) {
    const full = path.join(dir, "src/server", file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, source);
  }
  return dir;
}

describe("the server's folders import one way (npm run lint)", () => {
  it("finds no cycle in this repository", () => {
    expect(lintFolders()).toEqual({ status: 0, output: "" });
  });

  it("fails on two folders importing each other, naming the imports", () => {
    const { status, output } = lintFolders(
      tree({
        "orders/paid.ts": 'import { plan } from "../plans/start.js";\nexport const paid = plan;\n',
        "plans/start.ts": 'import { ORDER } from "../orders/status.js";\nexport const plan = ORDER;\n',
        "orders/status.ts": 'export const ORDER = "order";\n',
      }),
    );
    expect(status).toBe(1);
    expect(output).toContain("the folders orders, plans import each other");
    expect(output).toContain("orders -> plans: orders/paid.ts -> ../plans/start.js");
    expect(output).toContain("plans -> orders: plans/start.ts -> ../orders/status.js");
  });

  it("fails on a cycle through three folders that no two files close, and through #server/ paths", () => {
    const { status, output } = lintFolders(
      tree({
        "a/one.ts": 'export { two } from "#server/b/two.js";\n',
        "b/two.ts": 'import { three } from "../c/three.js";\nexport const two = three;\n',
        "c/three.ts": 'export const three = 3;\nexport const later = () => import("../a/other.js");\n',
        "a/other.ts": "export const other = 1;\n",
      }),
    );
    expect(status).toBe(1);
    expect(output).toContain("the folders a, b, c import each other");
  });

  it("passes a type-only import back, and the top of the house importing anything", () => {
    const { status } = lintFolders(
      tree({
        "orders/paid.ts": 'import { plan } from "../plans/start.js";\nexport const paid = plan;\n',
        "plans/start.ts": 'import type { Order } from "../orders/paid.js";\nexport const plan = (o?: Order) => o;\n',
        "app.ts": 'import { paid } from "./orders/paid.js";\nexport const app = paid;\n',
        "cli/run.ts": 'import { app } from "../app.js";\nexport const run = app;\n',
      }),
    );
    expect(status).toBe(0);
  });
});
