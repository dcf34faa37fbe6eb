import { describe, expect, it } from "vitest";
import { cancelReasonText, groupByLocalDay, orderLines, rangeStart, statusChangedMessage } from "./order-model";

const at = (year: number, month: number, day: number, hour = 12, minute = 0) =>
  new Date(year, month - 1, day, hour, minute).toISOString();

describe("orderLines", () => {
  const line = { productId: "p-1", name: "Newborn Nappies", size: "Newborn", quantity: 2, price: "249.99" };

  it("reads items sent as a list", () => {
    expect(orderLines([line])).toEqual([line]);
  });

  it("reads items sent as JSON text", () => {
    expect(orderLines(JSON.stringify([line]))).toEqual([line]);
  });

  it("reads numeric prices as text", () => {
    expect(orderLines(JSON.stringify([{ ...line, price: 249.99 }]))).toEqual([line]);
  });

  it("reads a line without a product (deleted since, or an old record) as productId null", () => {
    const { productId: _productId, ...old } = line;
    expect(orderLines([old as typeof line])).toEqual([{ ...line, productId: null }]);
  });

  it("gives no lines for unreadable text instead of failing", () => {
    expect(orderLines("not json")).toEqual([]);
    expect(orderLines(JSON.stringify({ name: "x" }))).toEqual([]);
  });
});

describe("date ranges", () => {
  const now = new Date(2025, 10, 22, 9, 30);

  it("starts Today at local midnight", () => {
    expect(rangeStart("today", now)).toEqual(new Date(2025, 10, 22, 0, 0));
  });

  it("starts This Week 7 days back and This Month 30 days back", () => {
    expect(rangeStart("week", now)?.getTime()).toBe(now.getTime() - 7 * 86_400_000);
    expect(rangeStart("month", now)?.getTime()).toBe(now.getTime() - 30 * 86_400_000);
    expect(rangeStart("all", now)).toBeNull();
  });
});

describe("groupByLocalDay", () => {
  it("groups orders by local date, newest day and newest order first", () => {
    const days = groupByLocalDay([
      { id: "early", createdAt: at(2025, 11, 21, 8) },
      { id: "late", createdAt: at(2025, 11, 21, 20) },
      { id: "today", createdAt: at(2025, 11, 22, 1) },
    ]);
    expect(days.map((day) => [day.key, day.orders.map((order) => order.id)])).toEqual([
      ["2025-11-22", ["today"]],
      ["2025-11-21", ["late", "early"]],
    ]);
  });
});

describe("cancelReasonText", () => {
  it("says why a cancelled order was cancelled, in the staff's words", () => {
    expect(cancelReasonText({ status: "cancelled", cancelReason: "expired" })).toBe("Not paid in time");
    expect(cancelReasonText({ status: "cancelled", cancelReason: "shopper" })).toBe("Cancelled by the shopper");
    expect(cancelReasonText({ status: "cancelled", cancelReason: "admin" })).toBe("Cancelled by the shop");
  });

  it("says just that it was cancelled when an old record kept no reason", () => {
    expect(cancelReasonText({ status: "cancelled", cancelReason: null })).toBe("Order cancelled");
  });

  it("says nothing for an order that is not cancelled", () => {
    expect(cancelReasonText({ status: "completed", cancelReason: "expired" })).toBeNull();
  });
});

describe("statusChangedMessage", () => {
  it("words the toast as docs/product.md §4 does", () => {
    expect(statusChangedMessage("completed")).toBe("Order marked as completed");
    expect(statusChangedMessage("processed")).toBe("Order marked as processed and ready to ship");
    expect(statusChangedMessage("pending")).toBe("Order marked as pending");
  });
});
