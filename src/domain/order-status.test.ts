import { describe, expect, it } from "vitest";
import {
  canMoveOrder,
  isOrderStatus,
  nextOrderStatus,
  ORDER_MOVERS,
  ORDER_START_STATUS,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderMover,
  type OrderStatus,
  orderNumber,
  orderStatusLabel,
  PAID_STATUSES,
  REFUNDABLE_STATUSES,
  UNPAID_STATUSES,
} from "./order-status";

/** The status machine written out move by move: who may make each. Every other pair and mover is refused (409). */
const ALLOWED: ReadonlyArray<[OrderStatus, OrderStatus, OrderMover]> = [
  ["pending", "completed", "admin"],
  ["pending", "completed", "payment"],
  ["cancelled", "completed", "payment"],
  ["completed", "processed", "admin"],
  ["completed", "processed", "courier"],
  ["pending", "cancelled", "admin"],
  ["pending", "cancelled", "shopper"],
  ["pending", "cancelled", "expiry"],
  ["completed", "refunded", "refund"],
  ["processed", "refunded", "refund"],
];

const allMoves = ORDER_STATUSES.flatMap((from) =>
  ORDER_STATUSES.flatMap((to) => ORDER_MOVERS.map((by) => [from, to, by] as [OrderStatus, OrderStatus, OrderMover])),
);
const isAllowed = (from: OrderStatus, to: OrderStatus, by: OrderMover) =>
  ALLOWED.some(([a, b, who]) => a === from && b === to && who === by);

describe("the order statuses", () => {
  it("are pending, completed, processed, cancelled and refunded", () => {
    expect([...ORDER_STATUSES]).toEqual(["pending", "completed", "processed", "cancelled", "refunded"]);
  });

  it("start at pending", () => {
    expect(ORDER_START_STATUS).toBe("pending");
  });
});

describe("canMoveOrder", () => {
  it.each(allMoves.filter((move) => isAllowed(...move)))("lets %s move to %s by %s", (from, to, by) => {
    expect(canMoveOrder(from, to, by)).toBe(true);
  });

  it.each(allMoves.filter((move) => !isAllowed(...move)))("refuses %s to %s by %s", (from, to, by) => {
    expect(canMoveOrder(from, to, by)).toBe(false);
  });

  it.each(ORDER_STATUSES)("lets nothing but a payment take a cancelled order to %s", (to) => {
    for (const by of ORDER_MOVERS)
      expect(canMoveOrder("cancelled", to, by)).toBe(by === "payment" && to === "completed");
  });

  it("lists no move twice", () => {
    const keys = ORDER_TRANSITIONS.map((move) => `${move.from}>${move.to}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("the statuses read from the table", () => {
  it("refunds completed and processed orders, lets a payment pay pending and cancelled ones", () => {
    expect([...REFUNDABLE_STATUSES]).toEqual(["completed", "processed"]);
    expect([...PAID_STATUSES]).toEqual(["completed", "processed"]);
    expect([...UNPAID_STATUSES]).toEqual(["pending", "cancelled"]);
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
    if (next !== null) expect(canMoveOrder(from, next, "admin")).toBe(true);
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
