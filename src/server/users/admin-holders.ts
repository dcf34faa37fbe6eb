import { and, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { STOCK_HOLDERS_SHOWN } from "#domain/limits.js";
import { centsToDecimal } from "#domain/money.js";
import { uuidParam } from "#domain/schemas/common.js";
import { accountStatus, disableAccountInput, stockHolders } from "#domain/schemas/holders.js";
import { requireFreshSecondFactor } from "../auth/two-factor.js";
import { cancelOrderByPerson } from "../orders/cancel.js";
import { recordAudit } from "../platform/audit.js";
import type { Database } from "../platform/db/client.js";
import { orders, sessions, users } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";

/** Who holds stock with unpaid orders: customers (most units held first) and client networks (most orders first). */
async function stockHolderList(db: Database) {
  const customers = await db.execute<{
    user_id: string;
    username: string;
    full_name: string;
    email: string;
    disabled: boolean;
    unpaid_orders: number;
    units_held: number;
    total_cents: string;
    oldest_at: string;
    networks: string[];
  }>(sql`
    select u.id as user_id, u.username, u.full_name, u.email, u.disabled_at is not null as disabled,
      count(*)::int as unpaid_orders,
      coalesce(sum((select sum(i.quantity) from order_items i where i.order_id = o.id)), 0)::int as units_held,
      sum(o.total_cents)::bigint as total_cents,
      min(o.created_at) as oldest_at,
      coalesce(array_agg(distinct o.placed_from) filter (where o.placed_from is not null), '{}') as networks
    from orders o join users u on u.id = o.user_id
    where o.status = 'pending' and o.stock_state = 'held'
    group by u.id
    order by units_held desc, unpaid_orders desc, oldest_at
    limit ${STOCK_HOLDERS_SHOWN}`);
  const networks = await db.execute<{ network: string; unpaid_orders: number; accounts: number }>(sql`
    select placed_from as network, count(*)::int as unpaid_orders, count(distinct user_id)::int as accounts
    from orders
    where status = 'pending' and stock_state = 'held' and placed_from is not null
    group by placed_from
    order by unpaid_orders desc, network
    limit ${STOCK_HOLDERS_SHOWN}`);
  return {
    customers: customers.rows.map((row) => ({
      userId: row.user_id,
      username: row.username,
      fullName: row.full_name,
      email: row.email,
      disabled: row.disabled,
      unpaidOrders: row.unpaid_orders,
      unitsHeld: row.units_held,
      total: centsToDecimal(Number(row.total_cents)),
      oldestAt: new Date(row.oldest_at).toISOString(),
      networks: row.networks,
    })),
    networks: networks.rows.map((row) => ({
      network: row.network,
      unpaidOrders: row.unpaid_orders,
      accounts: row.accounts,
    })),
  };
}

/**
 * /api/admin/holders: who holds stock with unpaid orders (by customer and by client network), and
 * disabling or enabling an account. Disabling ends the account's sessions, cancels its unpaid
 * orders (their holds go back on sale) and refuses its logins; each step is audited. Disabling
 * another admin wants a fresh step-up (auth/two-factor.ts).
 */
export const adminHolderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/holders", { schema: { response: { 200: stockHolders } } }, async () => stockHolderList(app.db));

  app.post(
    "/users/:id/disable",
    { schema: { params: uuidParam, body: disableAccountInput, response: { 200: accountStatus } } },
    async (request) => {
      const { id } = request.params;
      if (id === request.user?.id) {
        throw conflict("You cannot disable your own account. Ask another admin to do it.", "CANNOT_DISABLE_SELF");
      }
      const sessionsEnded = await app.db.transaction(async (tx) => {
        const [before] = await tx
          .select({ username: users.username, disabledAt: users.disabledAt, isAdmin: users.isAdmin })
          .from(users)
          .where(eq(users.id, id))
          .for("update");
        if (!before) throw notFound("User not found");
        // Locking another admin out is how a stolen session would silence the one who would notice: stepped up.
        if (before.isAdmin) requireFreshSecondFactor(request);
        if (!before.disabledAt) await tx.update(users).set({ disabledAt: sql`now()` }).where(eq(users.id, id));
        const ended = await tx.delete(sessions).where(eq(sessions.userId, id)).returning({ hash: sessions.tokenHash });
        await recordAudit(tx, request, {
          action: "user.disabled",
          subject: { type: "user", id },
          before: { disabled: before.disabledAt !== null, username: before.username },
          after: { disabled: true, sessionsEnded: ended.length, reason: request.body.reason ?? null },
        });
        return ended.length;
      });
      // The account can place no new order now (no session, no login); its held units go back on sale.
      const unpaid = await app.db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.userId, id), eq(orders.status, "pending")));
      let ordersCancelled = 0;
      for (const order of unpaid) {
        const cancelled = await cancelOrderByPerson(app.db, request, order.id, "admin", "Account disabled");
        if (cancelled) ordersCancelled += 1;
      }
      request.log.info({ userId: id, ordersCancelled, sessionsEnded }, "account disabled");
      return { id, disabled: true, ordersCancelled, sessionsEnded };
    },
  );

  app.post(
    "/users/:id/enable",
    { schema: { params: uuidParam, response: { 200: accountStatus } } },
    async (request) => {
      const { id } = request.params;
      await app.db.transaction(async (tx) => {
        const [before] = await tx
          .select({ username: users.username, disabledAt: users.disabledAt })
          .from(users)
          .where(eq(users.id, id))
          .for("update");
        if (!before) throw notFound("User not found");
        if (!before.disabledAt) return;
        await tx
          .update(users)
          .set({ disabledAt: null })
          .where(and(eq(users.id, id)));
        await recordAudit(tx, request, {
          action: "user.enabled",
          subject: { type: "user", id },
          before: { disabled: true, username: before.username },
          after: { disabled: false },
        });
      });
      return { id, disabled: false, ordersCancelled: 0, sessionsEnded: 0 };
    },
  );
};
