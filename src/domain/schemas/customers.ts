import { z } from "zod";
import { ADMIN_SEARCH_MAX } from "../limits.js";
import { user } from "./account.js";
import { adminOrder } from "./orders.js";

/**
 * A keyset cursor as the URL carries it: opaque to clients (the previous page's `nextCursor`),
 * base64url of the last row's position. Checked for shape here, decoded by the server.
 */
export const pageCursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, "cursor must be a nextCursor from a previous page")
  .optional();

/** GET /api/admin/users: newest customers first; `q` matches name, username, e-mail or phone, in part, any case. */
export const customerListQuery = z.object({
  q: z.string().trim().max(ADMIN_SEARCH_MAX, `q must be at most ${ADMIN_SEARCH_MAX} characters`).optional(),
  cursor: pageCursor,
});

/** A user as the admin's Users tab lists them: with how many orders they placed and what they paid. */
export const customer = user.extend({
  orderCount: z.number().int(),
  /** The totals of their paid orders (paid or shipped), in rand ("1249.50"). */
  spent: z.string(),
  lastOrderAt: z.string().nullable(),
  /** When the customer closed the account (its details were replaced; its orders are kept). */
  closedAt: z.string().nullable(),
  /** An admin disabled the account: it cannot log in (users/admin-holders.ts). */
  disabled: z.boolean(),
  /** An admin with two-step sign-in on (another admin can reset it after a lost phone). */
  twoFactorEnabled: z.boolean(),
});
export type Customer = z.infer<typeof customer>;

export const customerPage = z.object({ users: z.array(customer), nextCursor: z.string().nullable() });
export type CustomerPage = z.infer<typeof customerPage>;

/** GET /api/admin/users/{id}/orders: the customer's orders, newest first. */
export const customerOrdersQuery = z.object({ cursor: pageCursor });
export const customerOrderPage = z.object({ orders: z.array(adminOrder), nextCursor: z.string().nullable() });
export type CustomerOrderPage = z.infer<typeof customerOrderPage>;

/** PATCH /api/admin/users/{id}: make or remove an admin ("true"/"false" as on the wire, or a boolean). */
export const customerAdminInput = z.object({
  isAdmin: z
    .union([z.boolean(), z.enum(["true", "false"])], { message: 'isAdmin must be true or false (or "true"/"false")' })
    .transform((value) => value === true || value === "true"),
});
export type CustomerAdminInput = z.input<typeof customerAdminInput>;
