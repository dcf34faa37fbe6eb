import { z } from "zod";
import { DISABLE_REASON_MAX } from "../limits.js";

/** One customer holding stock with unpaid orders, as the admin's "Who holds what" list shows them. */
export const stockHolder = z.object({
  userId: z.string(),
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  disabled: z.boolean(),
  unpaidOrders: z.number().int(),
  unitsHeld: z.number().int(),
  /** What the unpaid orders come to, in rand ("249.99"). */
  total: z.string(),
  oldestAt: z.string(),
  /** The client networks the orders came from (an IPv4 address or an IPv6 /64). */
  networks: z.array(z.string()),
});
export type StockHolder = z.infer<typeof stockHolder>;

/** A client network holding stock with unpaid orders, and how many accounts placed them. */
export const networkHolder = z.object({
  network: z.string(),
  unpaidOrders: z.number().int(),
  accounts: z.number().int(),
});
export type NetworkHolder = z.infer<typeof networkHolder>;

export const stockHolders = z.object({
  customers: z.array(stockHolder),
  networks: z.array(networkHolder),
});
export type StockHolders = z.infer<typeof stockHolders>;

export const disableAccountInput = z.object({
  reason: z
    .string()
    .trim()
    .max(DISABLE_REASON_MAX, `reason must be at most ${DISABLE_REASON_MAX} characters`)
    .optional(),
});

export const accountStatus = z.object({
  id: z.string(),
  disabled: z.boolean(),
  /** Unpaid orders cancelled when the account was disabled. */
  ordersCancelled: z.number().int(),
  sessionsEnded: z.number().int(),
});
