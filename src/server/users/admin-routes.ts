import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { CUSTOMER_ORDERS_PAGE_SIZE, CUSTOMER_PAGE_SIZE } from "#domain/limits.js";
import { centsToDecimal } from "#domain/money.js";
import { PAID_STATUSES } from "#domain/order-status.js";
import { user } from "#domain/schemas/account.js";
import { uuidParam } from "#domain/schemas/common.js";
import {
  type Customer,
  customer,
  customerAdminInput,
  customerListQuery,
  customerOrderPage,
  customerOrdersQuery,
  customerPage,
} from "#domain/schemas/customers.js";
import { refuseClosedAccount, toUser, userColumns } from "../auth/accounts.js";
import { requireFreshSecondFactor } from "../auth/two-factor.js";
import { listOrders, withPaidBy } from "../orders/queries.js";
import { statusList } from "../orders/status.js";
import { recordAudit } from "../platform/audit.js";
import { containsPattern, decodeCursor, encodeCursor } from "../platform/cursor.js";
import type { Database } from "../platform/db/client.js";
import { orders, users } from "../platform/db/schema.js";
import { HttpError, notFound } from "../platform/errors.js";

/** The text the users' trigram index holds (migration 0006): the search must use this very expression. */
const searchText = sql`lower(${users.username} || ' ' || ${users.fullName} || ' ' || ${users.email} || ' ' || ${users.phone})`;

/**
 * Each customer's orders and what their paid ones came to, from the orders index on user_id. The
 * outer row is named in full: Drizzle writes a lone table's columns unqualified, which inside this
 * subquery would mean the order's own id.
 */
const orderTotals = sql<{ count: number; spent: string; last: string | null }>`(
  select json_build_object(
    'count', count(*)::int,
    'spent', coalesce(sum(o.total_cents) filter (where o.status in ${statusList(PAID_STATUSES)}), 0)::bigint,
    'last', max(o.created_at)
  ) from orders o where o.user_id = "users"."id")`;

async function customers(db: Database, where: ReturnType<typeof and>, limit: number): Promise<Customer[]> {
  const rows = await db
    .select({
      ...userColumns,
      closedAt: users.closedAt,
      disabledAt: users.disabledAt,
      totpEnabledAt: users.totpEnabledAt,
      totals: orderTotals,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
  return rows.map(({ totals, closedAt, disabledAt, totpEnabledAt, ...row }) => ({
    ...toUser(row),
    closedAt: closedAt?.toISOString() ?? null,
    disabled: disabledAt !== null,
    twoFactorEnabled: totpEnabledAt !== null,
    orderCount: totals.count,
    spent: centsToDecimal(Number(totals.spent)),
    lastOrderAt: totals.last ? new Date(totals.last).toISOString() : null,
  }));
}

/**
 * /api/admin/users: the customers (newest first, keyset pages, searched by name, username, e-mail
 * or phone), one customer with their orders, and making or removing an admin.
 */
export const adminUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/users",
    { schema: { querystring: customerListQuery, response: { 200: customerPage } } },
    async (request) => {
      const { q, cursor } = request.query;
      const after = cursor ? decodeCursor(cursor) : null;
      const page = await customers(
        app.db,
        and(
          q ? sql`${searchText} like ${containsPattern(q)}` : undefined,
          after
            ? sql`(${users.createdAt}, ${users.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
        CUSTOMER_PAGE_SIZE + 1,
      );
      const shown = page.slice(0, CUSTOMER_PAGE_SIZE);
      const last = shown.at(-1);
      return {
        users: shown,
        nextCursor: page.length > CUSTOMER_PAGE_SIZE && last ? encodeCursor(new Date(last.createdAt), last.id) : null,
      };
    },
  );

  app.get("/users/:id", { schema: { params: uuidParam, response: { 200: customer } } }, async (request) => {
    const [found] = await customers(app.db, eq(users.id, request.params.id), 1);
    if (!found) throw notFound("User not found");
    return found;
  });

  app.get(
    "/users/:id/orders",
    { schema: { params: uuidParam, querystring: customerOrdersQuery, response: { 200: customerOrderPage } } },
    async (request) => {
      const { id } = request.params;
      const [exists] = await app.db.select({ id: users.id }).from(users).where(eq(users.id, id));
      if (!exists) throw notFound("User not found");
      const after = request.query.cursor ? decodeCursor(request.query.cursor) : null;
      const page = await listOrders(
        app.db,
        and(
          eq(orders.userId, id),
          after
            ? sql`(${orders.createdAt}, ${orders.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
        CUSTOMER_ORDERS_PAGE_SIZE + 1,
      );
      const shown = page.slice(0, CUSTOMER_ORDERS_PAGE_SIZE);
      const last = shown.at(-1);
      return {
        orders: await withPaidBy(app.db, shown),
        nextCursor:
          page.length > CUSTOMER_ORDERS_PAGE_SIZE && last ? encodeCursor(new Date(last.createdAt), last.id) : null,
      };
    },
  );

  // An admin cannot remove their own rights: the shop must never be left without one by a slip.
  app.patch(
    "/users/:id",
    { schema: { params: uuidParam, body: customerAdminInput, response: { 200: user } } },
    async (request) => {
      const { id } = request.params;
      const { isAdmin } = request.body;
      if (isAdmin) requireFreshSecondFactor(request);
      if (id === request.user?.id && !isAdmin) {
        throw new HttpError(
          409,
          "You cannot remove your own admin rights. Ask another admin to do it.",
          "CANNOT_DEMOTE_SELF",
        );
      }
      const changed = await app.db.transaction(async (tx) => {
        const [before] = await tx.select(userColumns).from(users).where(eq(users.id, id)).for("update");
        if (!before) throw notFound("User not found");
        await refuseClosedAccount(tx, id);
        if (before.isAdmin === isAdmin) return before;
        const [row] = await tx.update(users).set({ isAdmin }).where(eq(users.id, id)).returning(userColumns);
        if (!row) throw notFound("User not found");
        await recordAudit(tx, request, {
          action: isAdmin ? "user.admin_granted" : "user.admin_revoked",
          subject: { type: "user", id },
          before: { isAdmin: before.isAdmin, username: before.username },
          after: { isAdmin: row.isAdmin, username: row.username },
        });
        return row;
      });
      return toUser(changed);
    },
  );
};
