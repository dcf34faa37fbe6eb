import { parseRandToCents } from "#domain/money.js";
import { CANCEL_REASON_LABELS } from "#domain/order-status.js";
import type { AdminOrder, OrderItem } from "#domain/schemas/orders.js";

/** An order as the admin screens receive it (the API's answer, src/domain/schemas/orders.ts). */
export type { AdminOrder };

function isOrderItem(value: unknown): value is OrderItem {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.name === "string" && typeof item.quantity === "number";
}

/** The lines of an order, whichever form they came in; unreadable text gives no lines rather than a crash. */
export function orderLines(items: OrderItem[] | string): OrderItem[] {
  let list: unknown = items;
  if (typeof items === "string") {
    try {
      list = JSON.parse(items);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.filter(isOrderItem).map((item) => ({
    productId: typeof item.productId === "string" ? item.productId : null,
    name: item.name,
    size: typeof item.size === "string" ? item.size : "",
    quantity: item.quantity,
    price: typeof item.price === "number" ? String(item.price) : String(item.price ?? "0"),
  }));
}

export function lineTotalCents(line: OrderItem): number {
  return (parseRandToCents(line.price) ?? 0) * line.quantity;
}

export type DateRange = "all" | "today" | "week" | "month";

export const DATE_RANGES: { value: DateRange; label: string }[] = [
  { value: "all", label: "All Orders" },
  { value: "today", label: "Today" },
  { value: "week", label: "This Week" },
  { value: "month", label: "This Month" },
];

const DAY_MS = 86_400_000;

/** Where a range starts: Today from local midnight, This Week 7 days back, This Month 30 days back (docs/product.md §9). */
export function rangeStart(range: DateRange, now: Date): Date | null {
  switch (range) {
    case "all":
      return null;
    case "today":
      return new Date(now.getFullYear(), now.getMonth(), now.getDate());
    case "week":
      return new Date(now.getTime() - 7 * DAY_MS);
    case "month":
      return new Date(now.getTime() - 30 * DAY_MS);
  }
}

export interface OrderDay<T> {
  /** Local calendar day, "2025-11-22". */
  key: string;
  date: Date;
  orders: T[];
}

function localDayKey(date: Date) {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Orders grouped by the local date they were placed, newest day first, newest order first within a day. */
export function groupByLocalDay<T extends Pick<AdminOrder, "createdAt">>(orders: readonly T[]): OrderDay<T>[] {
  const sorted = [...orders].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const days = new Map<string, OrderDay<T>>();
  for (const order of sorted) {
    const placed = new Date(order.createdAt);
    const key = localDayKey(placed);
    const day = days.get(key) ?? {
      key,
      date: new Date(placed.getFullYear(), placed.getMonth(), placed.getDate()),
      orders: [],
    };
    day.orders.push(order);
    days.set(key, day);
  }
  return [...days.values()];
}

/** The toast after a status change, in docs/product.md §4's words. */
export function statusChangedMessage(status: string): string {
  if (status === "completed") return "Order marked as completed";
  if (status === "processed") return "Order marked as processed and ready to ship";
  return `Order marked as ${status}`;
}

/** Why a cancelled order was cancelled, in the staff's words; null for an order that is not cancelled. */
export function cancelReasonText(order: Pick<AdminOrder, "status" | "cancelReason">): string | null {
  if (order.status !== "cancelled") return null;
  return order.cancelReason ? CANCEL_REASON_LABELS[order.cancelReason] : "Order cancelled";
}
