import { describe, expect, it } from "vitest";
import { addDays, daysBetween, planBoxTotals, planSavingBp, planUnitPriceCents } from "./plans.js";

describe("plan prices", () => {
  it.each([
    [24999, 500, 23749],
    [24999, 0, 24999],
    [100, 500, 95],
    [10, 500, 9],
    [24999, 5000, 12499],
    [19999, 750, 18499],
  ])("a unit of %i cents less %i bp costs %i cents", (price, bp, plan) => {
    expect(planUnitPriceCents(price, bp)).toBe(plan);
  });

  it("takes the owner's 5% for a product without its own saving, and a product's own 0%", () => {
    expect(planSavingBp(null)).toBe(500);
    expect(planSavingBp(undefined)).toBe(500);
    expect(planSavingBp(0)).toBe(0);
    expect(planSavingBp(1000)).toBe(1000);
  });

  it("prices a box at plan prices with the usual delivery fee rule", () => {
    expect(planBoxTotals([{ priceCents: 24999, savingBp: 500, quantity: 1 }])).toEqual({
      subtotalCents: 23749,
      deliveryFeeCents: 7500,
      totalCents: 31249,
    });
    // 2 x 237.49 = 474.98: under R500 after the saving, so delivery is charged.
    expect(planBoxTotals([{ priceCents: 24999, savingBp: 500, quantity: 2 }]).deliveryFeeCents).toBe(7500);
    expect(planBoxTotals([{ priceCents: 26316, savingBp: 500, quantity: 2 }]).deliveryFeeCents).toBe(0);
  });
});

describe("plan dates", () => {
  it.each([
    ["2026-12-30", 7, "2027-01-06"],
    ["2028-02-27", 2, "2028-02-29"],
    ["2026-03-01", -1, "2026-02-28"],
  ])("%s moved by %i days is %s", (day, days, moved) => {
    expect(addDays(day, days)).toBe(moved);
    expect(daysBetween(day, moved)).toBe(days);
  });
});
