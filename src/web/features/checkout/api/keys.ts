/** The checkout's query keys, as words: one order the shopper just placed, by id. */
export const checkoutKeys = {
  orders: () => ["checkout", "orders"] as const,
  order: (orderId: string | null) => ["checkout", "orders", orderId] as const,
};
