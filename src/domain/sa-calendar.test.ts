import { describe, expect, it } from "vitest";
import { saDay } from "./sa-calendar";

describe("saDay", () => {
  it.each([
    ["2026-01-05T21:59:59.999Z", "2026-01-05"],
    ["2026-01-05T22:00:00.000Z", "2026-01-06"],
    ["2026-06-30T23:30:00.000Z", "2026-07-01"],
  ])("puts %s on %s", (utc, day) => {
    expect(saDay(new Date(utc))).toBe(day);
  });
});
