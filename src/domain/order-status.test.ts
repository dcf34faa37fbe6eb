import { describe, expect, it } from "vitest";
import {
  canMoveOrder,
  isOrderStatus,
  nextOrderStatus,
  ORDER_STATUSES,
  type OrderStatus,
  orderNumber,
  orderStatusLabel,
} from "./order-status";

/** Every admin status change the shop allows; every other pair is refused (409). */
const ALLOWED: ReadonlyArray<[OrderStatus, OrderStatus]> = [
  ["pending", "completed"],
  ["completed", "processed"],
];

const allPairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]));
const isAllowed = (from: OrderStatus, to: OrderStatus) => ALLOWED.some(([a, b]) => a === from && b === to);

describe("the order statuses", () => {
  it("are pending, completed, processed, cancelled and refunded", () => {
    expect([...ORDER_STATUSES]).toEqual(["pending", "completed", "processed", "cancelled", "refunded"]);
  });
});

describe("canMoveOrder", () => {
  it.each(allPairs.filter(([from, to]) => isAllowed(from, to)))("allows an admin to move %s to %s", (from, to) => {
    expect(canMoveOrder(from, to)).toBe(true);
  });

  it.each(allPairs.filter(([from, to]) => !isAllowed(from, to)))("refuses to move %s to %s", (from, to) => {
    expect(canMoveOrder(from, to)).toBe(false);
  });

  it.each(ORDER_STATUSES)("lets no admin move take a cancelled order to %s", (to) => {
    expect(canMoveOrder("cancelled", to)).toBe(false);
  });
});

describe("nextOrderStatus", () => {
  it.each<[OrderStatus, OrderStatus | null]>([
    ["pending", "completed"],
    ["completed", "processed"],
    ["processed", null],
    ["cancelled", null],
    ["refunded", null],
  ])("offers %s the move to %s", (from, next) => {
    expect(nextOrderStatus(from)).toBe(next);
  });

  it.each(ORDER_STATUSES)("offers from %s only a move that canMoveOrder allows", (from) => {
    const next = nextOrderStatus(from);
    if (next !== null) expect(canMoveOrder(from, next)).toBe(true);
  });
});

describe("orderStatusLabel", () => {
  it.each([
    ["pending", "Needs Payment"],
    ["completed", "Paid - Ready to Ship"],
    ["processed", "Shipped"],
    ["cancelled", "Cancelled"],
    ["refunded", "Refunded"],
    ["something-else", "something-else"],
  ])("shows %s as %j", (status, label) => {
    expect(orderStatusLabel(status)).toBe(label);
  });
});

describe("isOrderStatus", () => {
  it.each([...ORDER_STATUSES])("knows %s", (status) => {
    expect(isOrderStatus(status)).toBe(true);
  });

  it.each([["Pending"], ["refund"], [""], [null], [undefined], [1]])("does not know %j", (value) => {
    expect(isOrderStatus(value)).toBe(false);
  });
});

describe("orderNumber", () => {
  it("shows an order by the last 8 characters of its id, in capitals", () => {
    expect(orderNumber("3f2c8a1e-4b7d-4c0a-9e55-1a2b3c4d5e6f")).toBe("3C4D5E6F");
  });
});
