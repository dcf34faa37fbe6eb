import { describe, expect, it } from "vitest";
import {
  amountToFreeDeliveryCents,
  DELIVERY_FEE_CENTS,
  deliveryFeeCents,
  FREE_DELIVERY_THRESHOLD_CENTS,
  orderTotals,
} from "./pricing";

describe("the pricing constants", () => {
  it("charge R75.00 delivery below R500.00", () => {
    expect(DELIVERY_FEE_CENTS).toBe(7_500);
    expect(FREE_DELIVERY_THRESHOLD_CENTS).toBe(50_000);
  });
});

describe("deliveryFeeCents", () => {
  it.each([
    ["R0.00", 0, 7_500],
    ["R0.01", 1, 7_500],
    ["R249.99", 24_999, 7_500],
    ["R499.99", 49_999, 7_500],
    ["R500.00", 50_000, 0],
    ["R500.01", 50_001, 0],
    ["R1,299.00", 129_900, 0],
  ])("charges a subtotal of %s (%i cents) a fee of %i cents", (_label, subtotal, fee) => {
    expect(deliveryFeeCents(subtotal)).toBe(fee);
  });
});

describe("amountToFreeDeliveryCents", () => {
  it.each([
    [0, 50_000],
    [24_999, 25_001],
    [49_999, 1],
    [50_000, 0],
    [75_000, 0],
  ])("asks a subtotal of %i cents for %i cents more", (subtotal, more) => {
    expect(amountToFreeDeliveryCents(subtotal)).toBe(more);
  });
});

describe("orderTotals", () => {
  it.each([
    {
      name: "adds the delivery fee just below R500.00",
      lines: [{ unitPriceCents: 24_999, quantity: 2 }],
      totals: { subtotalCents: 49_998, deliveryFeeCents: 7_500, totalCents: 57_498 },
    },
    {
      name: "delivers free at exactly R500.00",
      lines: [{ unitPriceCents: 25_000, quantity: 2 }],
      totals: { subtotalCents: 50_000, deliveryFeeCents: 0, totalCents: 50_000 },
    },
    {
      name: "sums every line's unit price times its quantity",
      lines: [
        { unitPriceCents: 12_999, quantity: 1 },
        { unitPriceCents: 4_500, quantity: 3 },
        { unitPriceCents: 199, quantity: 10 },
      ],
      totals: { subtotalCents: 28_489, deliveryFeeCents: 7_500, totalCents: 35_989 },
    },
    {
      name: "charges delivery on an empty list (create-order never accepts one)",
      lines: [],
      totals: { subtotalCents: 0, deliveryFeeCents: 7_500, totalCents: 7_500 },
    },
  ])("$name", ({ lines, totals }) => {
    expect(orderTotals(lines)).toEqual(totals);
  });
});
