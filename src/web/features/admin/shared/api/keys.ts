import type { QueryClient } from "@tanstack/react-query";
import { USERS_KEY } from "../../../account";
import { CATEGORIES_KEY, PRODUCTS_KEY } from "../../../catalog";

export const ADMIN_ORDERS_KEY = ["/api/admin/orders"] as const;
export const PREPARING_ORDERS_KEY = ["/api/admin/orders/preparing"] as const;
export const PAYMENT_ATTENTION_KEY = ["/api/admin/payments/attention"] as const;
export const ADMIN_CATEGORIES_KEY = ["/api/admin/categories"] as const;
export const ADMIN_USERS_KEY = ["/api/admin/users"] as const;
/** Who holds stock with unpaid orders (the Users tab's first section). */
export const ADMIN_HOLDERS_KEY = ["/api/admin/holders"] as const;
export const ADMIN_PRODUCTS_KEY = ["/api/admin/products"] as const;
export const ADMIN_DASHBOARD_KEY = ["/api/admin/dashboard"] as const;
/** Returns, cancellations and complaints, per list: ["/api/admin/returns", "open"]. */
export const ADMIN_RETURNS_KEY = ["/api/admin/returns"] as const;
/** The audit trail's pages, per search: ["/api/admin/audit", "pages", q]. */
export const ADMIN_AUDIT_KEY = ["/api/admin/audit"] as const;
/** The outbox's pages, and each message under it: ["/api/admin/emails", id]. */
export const ADMIN_EMAILS_KEY = ["/api/admin/emails"] as const;

/** After a catalogue write: the admin lists and the storefront's lists load afresh. */
export function catalogueChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ADMIN_PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_CATEGORIES_KEY }),
  ]);
}

/**
 * After an order moves: both order lists, the payments needing attention (an order that waited
 * too long leaves it once paid), any customer's order history and the stock (a payment sells
 * what the order held) load afresh.
 */
export function ordersChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ADMIN_PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_ORDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: PREPARING_ORDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: PAYMENT_ATTENTION_KEY }),
    queryClient.invalidateQueries({ queryKey: USERS_KEY }),
    // Paying or shipping an order writes an e-mail, an audit record and moves the dashboard's figures.
    queryClient.invalidateQueries({ queryKey: ADMIN_EMAILS_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_DASHBOARD_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_AUDIT_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY }),
    // A payment the shop cannot fill opens a request (ECTA s46).
    queryClient.invalidateQueries({ queryKey: ADMIN_RETURNS_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_HOLDERS_KEY }),
  ]);
}
