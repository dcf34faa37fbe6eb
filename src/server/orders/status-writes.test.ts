import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * An order's status is written in one place, src/server/orders/status.ts, which reads the
 * domain's transition table (docs/decisions/028). This test reads every source file and migration
 * under src/ and fails on a status write anywhere else: a Drizzle `.update(orders).set({ status })`,
 * an SQL `update orders set status = ...` (in code, or in a migration's function or trigger), or
 * an insert of orders with a status. The probe cases write one file into a temporary copy of the
 * layout and show the scan finds it: nothing is ever written into the source tree.
 */
const root = path.resolve(import.meta.dirname, "../../..");

/** The transition table's module: the one writer. */
const WRITER = "src/server/orders/status.ts";

/**
 * Files that create orders, so write their first status: placing an order (its status is
 * ORDER_START_STATUS, from the table, never a typed word), and the command that seeds made-up
 * history for benchmarks and demonstrations (no path of the running shop).
 */
const CREATORS: Record<string, (source: string) => boolean> = {
  "src/server/orders/place-order.ts": (source) =>
    source.includes("ORDER_START_STATUS") && !/insert into orders[\s\S]*?'pending'/.test(source),
  "src/server/cli/seed-orders.ts": () => true,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|sql)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** A column list or SET clause that names the status column (not payfast_status, not stock_state). */
const NAMES_STATUS = /(^|[\s,{("])"?status"?\s*[:=,})]/;

/** The kinds of order-status write a file's text holds. */
function orderStatusWrites(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\.update\(orders\)([\s\S]*?)(\.where\(|\.returning\(|;)/g)) {
    if (NAMES_STATUS.test(match[1] ?? "")) found.push("drizzle update");
  }
  for (const match of source.matchAll(/update\s+"?orders"?\s+set\b([\s\S]*?)(\bwhere\b|\bfrom\b|`|;)/gi)) {
    if (NAMES_STATUS.test(match[1] ?? "")) found.push("sql update");
  }
  if (/\.insert\(orders\)/.test(source)) found.push("drizzle insert");
  for (const match of source.matchAll(/insert\s+into\s+"?orders"?\s*\(([^)]*)\)/gi)) {
    const columns = (match[1] ?? "").split(",").map((column) => column.trim().replaceAll('"', ""));
    if (columns.includes("status")) found.push("sql insert");
  }
  return found;
}

/** Every file under `base`/src that writes an order's status and is not allowed to. */
function strayWrites(base: string): string[] {
  return sourceFiles(path.join(base, "src")).flatMap((file) => {
    const relative = path.relative(base, file).split(path.sep).join("/");
    const source = readFileSync(file, "utf8");
    const writes = orderStatusWrites(source);
    if (writes.length === 0 || relative === WRITER) return [];
    if (CREATORS[relative]?.(source) && writes.every((kind) => kind.endsWith("insert"))) return [];
    return [`${relative}: ${writes.join(", ")}`];
  });
}

describe("an order's status is written only through the transition table's module", () => {
  it("finds no write of it anywhere else in src/", () => {
    expect(strayWrites(root)).toEqual([]);
  });

  it("finds the writer itself (the scan sees a real write)", () => {
    expect(orderStatusWrites(readFileSync(path.join(root, WRITER), "utf8"))).toContain("drizzle update");
  });
});

describe("the scan, with a probe file", () => {
  let workspace: string;
  beforeAll(() => {
    workspace = mkdtempSync(path.join(tmpdir(), "status-writes-"));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  function probe(file: string, source: string): string[] {
    const full = path.join(workspace, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, source);
    try {
      return strayWrites(workspace);
    } finally {
      rmSync(full);
    }
  }

  it.each([
    [
      "a Drizzle update in a route file",
      "src/server/admin/probe.ts",
      'await tx.update(orders).set({ status: "processed", shippedAt: sql`now()` }).where(eq(orders.id, id));',
    ],
    [
      "a Drizzle update of a computed status",
      "src/server/admin/probe.ts",
      "await db.update(orders).set({ status }).where(x);",
    ],
    [
      "an SQL update",
      "src/server/jobs/probe.ts",
      "await tx.execute(sql`update orders set cancel_reason = 'expired', status = 'cancelled' where id = $" + "{id}`);",
    ],
    [
      "a migration's function",
      "src/server/platform/db/migrations/9999_probe.sql",
      `CREATE FUNCTION "expire"() RETURNS void AS $$ UPDATE "orders" SET "status" = 'cancelled' WHERE true; $$;`,
    ],
    [
      "an insert with a status",
      "src/server/orders/probe.ts",
      "await pool.query(`insert into orders (id, status) values ($1, 'completed')`);",
    ],
  ])("refuses %s", (_, file, source) => {
    expect(probe(file, source)).toEqual([expect.stringContaining(file)]);
  });

  it.each([
    ["another column of orders", "await tx.update(orders).set({ payfastStatus: s, stockState: 'sold' }).where(x);"],
    ["another table's status", "await tx.update(refunds).set({ status: 'failed' }).where(x);"],
    ["SQL of another column", "await tx.execute(sql`update orders set stock_state = $" + "{state} where id = $1`);"],
  ])("lets through %s", (_, source) => {
    expect(probe("src/server/admin/probe.ts", source)).toEqual([]);
  });
});
