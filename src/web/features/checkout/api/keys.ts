/** The checkout's query keys, as words: one order the shopper just placed, by id; delivery options and points. */
export const checkoutKeys = {
  orders: () => ["checkout", "orders"] as const,
  order: (orderId: string | null) => ["checkout", "orders", orderId] as const,
  deliveryOptions: (input: unknown) => ["checkout", "delivery-options", input] as const,
  deliveryPoints: (service: string | null, near: string) => ["checkout", "delivery-points", service, near] as const,
};
