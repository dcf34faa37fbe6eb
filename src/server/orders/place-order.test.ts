import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderHolders, orderItems, orders } from "../platform/db/schema.js";
import { PLACE_ORDER } from "./place-order.js";

/** The columns PLACE_ORDER names for each table it inserts into. */
function insertedColumns(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const match of text.matchAll(/insert\s+into\s+(\w+)\s*\(([^)]*)\)/gi)) {
    const [, table = "", columns = ""] = match;
    found.set(
      table,
      columns.split(",").map((column) => column.trim()),
    );
  }
  return found;
}

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Every column of `table` by its name in PostgreSQL, and which of them an insert must give. */
function columnsOf(table: Table) {
  const columns = Object.values(getTableColumns(table)).map((column) => ({
    // drizzle.config.ts uses snake_case for columns declared without a name of their own.
    name: column.keyAsName ? snakeCase(column.name) : column.name,
    required: column.notNull && !column.hasDefault,
  }));
  return {
    all: columns.map((column) => column.name),
    required: columns.filter((column) => column.required).map((column) => column.name),
  };
}

describe("PLACE_ORDER, the one-statement order insert", () => {
  const inserted = insertedColumns(PLACE_ORDER.text);

  it("inserts into orders and order_items (and locks the holders' rows of order_holders), and nothing else", () => {
    expect([...inserted.keys()].sort()).toEqual(
      [getTableName(orderHolders), getTableName(orderItems), getTableName(orders)].sort(),
    );
  });

  it.each([
    ["orders", orders],
    ["order_items", orderItems],
    ["order_holders", orderHolders],
  ] as const)("gives %s every NOT NULL column without a default, and names no column it lacks", (name, table) => {
    const named = inserted.get(name) ?? [];
    const { all, required } = columnsOf(table);
    expect(
      required.filter((column) => !named.includes(column)),
      `NOT NULL columns without a default that PLACE_ORDER leaves out of ${name}`,
    ).toEqual([]);
    expect(
      named.filter((column) => !all.includes(column)),
      `columns PLACE_ORDER names that ${name} does not have`,
    ).toEqual([]);
    expect(new Set(named).size, `a column named twice in ${name}`).toBe(named.length);
  });
});
