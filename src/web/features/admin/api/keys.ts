import type { QueryClient } from "@tanstack/react-query";

export const ADMIN_ORDERS_KEY = ["/api/admin/orders"] as const;
export const PREPARING_ORDERS_KEY = ["/api/admin/orders/preparing"] as const;
export const PAYMENT_ATTENTION_KEY = ["/api/admin/payments/attention"] as const;
export const ADMIN_CATEGORIES_KEY = ["/api/admin/categories"] as const;
export const ADMIN_USERS_KEY = ["/api/admin/users"] as const;
export const PRODUCTS_KEY = ["/api/products"] as const;
export const CATEGORIES_KEY = ["/api/categories"] as const;

/** After a catalogue write: the admin lists and the storefront's lists load afresh. */
export function catalogueChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY }),
    queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY }),
    queryClient.invalidateQueries({ queryKey: ADMIN_CATEGORIES_KEY }),
  ]);
}

/**
 * After an order moves: both order lists, the payments needing attention (an order that waited
 * too long leaves it once paid) and any customer's order history load afresh.
 */
export function ordersChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ADMIN_ORDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: PREPARING_ORDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: PAYMENT_ATTENTION_KEY }),
    queryClient.invalidateQueries({ queryKey: ["/api/users"] }),
  ]);
}

/** The message to show for a failed call: the server's, or the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
