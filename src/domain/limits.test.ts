import { describe, expect, it } from "vitest";
import * as limits from "./limits.js";

/** The word MIN in a name (PASSWORD_MIN, PLAN_CADENCE_MIN_WEEKS), not ADMIN or MINUTE. */
const MIN_WORD = /(?<=^|_)MIN(?=_|$)/;

const numbers = Object.entries(limits).filter((entry): entry is [string, number] => typeof entry[1] === "number");

/** Every { min, max } inside the object limits (FIT_LIMITS, MULTIBUY_LIMITS), with its path. */
function ranges(value: unknown, path: string): [string, { min: number; max: number }][] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.min === "number" && typeof record.max === "number") {
    return [[path, { min: record.min, max: record.max }]];
  }
  return Object.entries(record).flatMap(([key, inner]) => ranges(inner, `${path}.${key}`));
}

describe("the input limits", () => {
  it.each(numbers)("%s is a positive number", (_name, value) => {
    expect(Number.isFinite(value)).toBe(true);
    expect(value).toBeGreaterThan(0);
  });

  it.each(numbers.filter(([name]) => MIN_WORD.test(name)))("%s has its MAX, and is below it", (name, min) => {
    const max = (limits as Record<string, unknown>)[name.replace(MIN_WORD, "MAX")];
    expect(typeof max).toBe("number");
    expect(min).toBeLessThan(max as number);
  });

  it.each(Object.entries(limits).flatMap(([name, value]) => ranges(value, name)))(
    "%s keeps its min below its max",
    (_path, range) => {
      expect(range.min).toBeGreaterThan(0);
      expect(range.min).toBeLessThan(range.max);
    },
  );

  const pages = numbers.flatMap(([name, size]) => {
    const max = (limits as Record<string, unknown>)[name.replace("_PAGE_SIZE", "_PAGE_MAX")];
    return name.endsWith("_PAGE_SIZE") && typeof max === "number" ? [[name, size, max] as const] : [];
  });
  it.each(pages)("%s (%i) is a page its own query accepts (at most %i)", (_name, size, max) => {
    expect(size).toBeLessThanOrEqual(max);
  });

  it("lets a product's default per-order cap fit in one cart line", () => {
    expect(limits.DEFAULT_MAX_PER_ORDER).toBeLessThanOrEqual(limits.MAX_LINE_QUANTITY);
  });
});
