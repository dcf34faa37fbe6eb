import type { QueryClient } from "@tanstack/react-query";
import { accountKeys } from "../../../account";
import { CATEGORIES_KEY, PRODUCTS_KEY } from "../../../catalog";

/**
 * The admin's query keys, as words: every key starts with "admin", then the list it caches, then
 * what narrows it (["admin", "orders", "pages", filters]). A write clears a whole list by its prefix
 * (["admin", "orders"] clears every page, summary and order under it), never by URL: a URL is what
 * the fetcher asks, not the name of the data.
 */
export const adminKeys = {
  all: ["admin"] as const,
  orders: () => ["admin", "orders"] as const,
  orderPages: (filters: object) => ["admin", "orders", "pages", filters] as const,
  recentOrders: (count: number) => ["admin", "orders", "recent", count] as const,
  orderSummary: (range: object) => ["admin", "orders", "summary", range] as const,
  order: (id: string) => ["admin", "orders", "detail", id] as const,
  /** An order's waybill and its parcel's timeline (under the order, so an order's change reloads it). */
  shipment: (id: string) => ["admin", "orders", "detail", id, "shipment"] as const,
  /** The Payment Verification tab's two lists: paid orders to prepare, and payments needing attention. */
  payments: () => ["admin", "payments"] as const,
  preparingOrders: (filters: object) => ["admin", "payments", "preparing", filters] as const,
  paymentAttention: () => ["admin", "payments", "attention"] as const,
  vatReport: (period: object) => ["admin", "vat-report", period] as const,
  /** The Delivery tab: the owner's boxes, and the delivery-cost report per period. */
  deliveryBoxes: () => ["admin", "delivery", "boxes"] as const,
  deliveryCosts: (period: object) => ["admin", "delivery", "costs", period] as const,
  products: () => ["admin", "products"] as const,
  categories: () => ["admin", "categories"] as const,
  promoCodes: () => ["admin", "promo-codes"] as const,
  users: () => ["admin", "users"] as const,
  userPages: (q: string) => ["admin", "users", "pages", q] as const,
  user: (id: string) => ["admin", "users", id] as const,
  userOrders: (id: string) => ["admin", "users", id, "orders"] as const,
  /** Who holds stock with unpaid orders (the Users tab's first section). */
  holders: () => ["admin", "holders"] as const,
  dashboard: () => ["admin", "dashboard"] as const,
  /** Returns, cancellations and complaints, per list: ["admin", "returns", "open", orderId]. */
  returns: () => ["admin", "returns"] as const,
  returnList: (status: string, orderId: string | undefined) =>
    ["admin", "returns", status, orderId ?? "every order"] as const,
  /** The audit trail's pages, per search. */
  audit: () => ["admin", "audit"] as const,
  auditPages: (q: string) => ["admin", "audit", "pages", q] as const,
  /** The outbox's pages, and each message under it. */
  emails: () => ["admin", "emails"] as const,
  emailPages: () => ["admin", "emails", "pages"] as const,
  email: (id: number | null) => ["admin", "emails", id] as const,
  /** "Before you open": the owner's duties outside the software and their ticks. */
  launchChecklist: () => ["admin", "launch-checklist"] as const,
};

/** After a catalogue write: the admin lists and the storefront's lists load afresh. */
export function catalogChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.products() }),
    queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY }),
    queryClient.invalidateQueries({ queryKey: adminKeys.categories() }),
  ]);
}

/**
 * After an order moves: both order lists, the payments needing attention (an order that waited
 * too long leaves it once paid), any customer's order history and the stock (a payment sells
 * what the order held) load afresh.
 */
export function ordersChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.products() }),
    queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: adminKeys.orders() }),
    // The orders to prepare and the payments needing attention.
    queryClient.invalidateQueries({ queryKey: adminKeys.payments() }),
    queryClient.invalidateQueries({ queryKey: accountKeys.orders() }),
    // Paying or shipping an order writes an e-mail, an audit record and moves the dashboard's figures.
    queryClient.invalidateQueries({ queryKey: adminKeys.emails() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.audit() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
    // A payment the shop cannot fill opens a request (ECTA s46).
    queryClient.invalidateQueries({ queryKey: adminKeys.returns() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.holders() }),
  ]);
}
