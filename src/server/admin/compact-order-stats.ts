import { sql } from "drizzle-orm";
import type { Database } from "../platform/db/client.js";

/**
 * Folds the dashboard's counter changes (order_stat_changes, appended by the orders trigger of
 * migration 0006) into order_stats, in one statement: the dashboard, which sums both tables,
 * reads the same figures before and after. Safe to run twice or at once: each change row is
 * deleted, and so added, exactly once. Answers how many change rows it folded.
 */
export async function compactOrderStats(db: Database): Promise<number> {
  const { rows } = await db.execute<{ folded: number }>(sql`
    with moved as (
      delete from order_stat_changes returning day, status, orders, total_cents
    ), summed as (
      select day, status, sum(orders)::int as orders, sum(total_cents)::bigint as total_cents, count(*) as changes
      from moved group by day, status
    ), folded as (
      insert into order_stats (day, status, orders, total_cents)
      select day, status, orders, total_cents from summed order by day, status
      on conflict (day, status) do update set
        orders = order_stats.orders + excluded.orders,
        total_cents = order_stats.total_cents + excluded.total_cents
    )
    select coalesce(sum(changes), 0)::int as folded from summed
  `);
  return rows[0]?.folded ?? 0;
}
