import { describe, expect, it } from "vitest";
import { monthlyRecurringCents } from "./plans.js";

describe("monthlyRecurringCents", () => {
  it.each([
    { name: "no plans", boxes: [], cents: 0 },
    // R520 every 4 weeks: 52000 × 52 / 48 = 56333.33
    { name: "one box every 4 weeks", boxes: [{ totalCents: 52_000, cadenceWeeks: 4 }], cents: 56_333 },
    // R300 every 2 weeks: 30000 × 52 / 24 = 65000
    { name: "one box every 2 weeks", boxes: [{ totalCents: 30_000, cadenceWeeks: 2 }], cents: 65_000 },
    // 10000 × 52 / 96 = 5416.67
    { name: "every 8 weeks rounds to the cent", boxes: [{ totalCents: 10_000, cadenceWeeks: 8 }], cents: 5_417 },
    {
      name: "rounds once, after adding, not each box",
      boxes: [
        { totalCents: 1, cadenceWeeks: 2 },
        { totalCents: 1, cadenceWeeks: 2 },
        { totalCents: 1, cadenceWeeks: 2 },
      ],
      // 3 × 52/24 = 6.5 → 7 (each rounded alone would give 2 + 2 + 2 = 6)
      cents: 7,
    },
  ])("$name", ({ boxes, cents }) => {
    expect(monthlyRecurringCents(boxes)).toBe(cents);
  });
});
