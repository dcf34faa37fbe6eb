/**
 * The account's query keys, as words: everything under ["account"] belongs to whoever is signed in,
 * and is forgotten when they sign out (session.tsx). Prefixes clear whole lists: ["account", "orders"]
 * is every user's order history.
 */
export const accountKeys = {
  all: ["account"] as const,
  orders: () => ["account", "orders"] as const,
  userOrders: (userId: string) => ["account", "orders", userId] as const,
  returns: () => ["account", "returns"] as const,
  orderReturns: (orderId: string) => ["account", "returns", "order", orderId] as const,
  consents: () => ["account", "consents"] as const,
  sessions: () => ["account", "sessions"] as const,
  address: () => ["account", "address"] as const,
  /** The children kept for the size finder (the catalog's finder reads the same list). */
  children: (userId: string) => ["account", "children", userId] as const,
  /** Shared with the admin gate, which reads the same answer. */
  twoFactor: () => ["account", "two-factor"] as const,
};
