import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { centsToDecimal } from "#domain/money.js";
import {
  addDays,
  MRR_METHOD_TEXT,
  monthlyRecurringCents,
  type PlanStatus,
  planBoxTotals,
  planSavingBp,
} from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import type { AdminPlan, AdminPlanFilter, DashboardPlans } from "#domain/schemas/admin-plans.js";
import { containsPattern } from "../platform/cursor.js";
import type { Database } from "../platform/db/client.js";
import { planLines, plans, products } from "../platform/db/schema.js";

/** The boxes the dashboard counts ahead: today and the 6 days after it. */
export const BOXES_DUE_DAYS = 7;

/** Each plan's lines with today's prices and plan savings, for its box's total. */
async function boxLinesOf(db: Database, planIds: readonly string[]) {
  if (planIds.length === 0) return new Map<string, BoxLine[]>();
  const rows = await db
    .select({
      planId: planLines.planId,
      productId: planLines.productId,
      name: products.name,
      size: planLines.size,
      quantity: planLines.quantity,
      priceCents: products.priceCents,
      sizePrices: products.sizePrices,
      planSavingBp: products.planSavingBp,
    })
    .from(planLines)
    .innerJoin(products, eq(products.id, planLines.productId))
    .where(inArray(planLines.planId, [...planIds]))
    .orderBy(asc(planLines.id));
  const byPlan = new Map<string, BoxLine[]>();
  for (const row of rows) {
    const line: BoxLine = {
      productId: row.productId,
      name: row.name,
      size: row.size,
      quantity: row.quantity,
      priceCents: row.sizePrices[row.size] ?? row.priceCents,
      savingBp: planSavingBp(row.planSavingBp),
    };
    byPlan.set(row.planId, [...(byPlan.get(row.planId) ?? []), line]);
  }
  return byPlan;
}

interface BoxLine {
  productId: string;
  name: string;
  size: string;
  quantity: number;
  priceCents: number;
  savingBp: number;
}

/** The latest charge row of the plan (by delivery date): the list's "last charge". */
const lastCharge = sql<AdminPlan["lastCharge"]>`(
  select json_build_object(
    'deliveryDate', c.delivery_date::text, 'status', c.status, 'amountCents', c.amount_cents,
    'orderId', c.order_id, 'attempts', c.attempts, 'payfastResponse', c.payfast_response)
  from plan_charges c where c.plan_id = "plans"."id"
  order by c.delivery_date desc, c.created_at desc limit 1)`;

/** Which plans a filter keeps: due today means an active plan whose next date is today or past. */
function filterOf(filter: AdminPlanFilter, today: string) {
  switch (filter) {
    case "all":
      return undefined;
    case "due_today":
      return and(eq(plans.status, "active"), sql`${plans.nextDate} <= ${today}::date`);
    case "in_doubt":
      return sql`exists (select 1 from plan_charges c where c.plan_id = "plans"."id" and c.status = 'unknown')`;
  }
}

/** One page of the admin's Plans: newest first, after the cursor's (createdAt, id). */
export async function adminPlansPage(
  db: Database,
  query: { filter: AdminPlanFilter; status?: PlanStatus | undefined; q?: string | undefined },
  after: { at: Date; id: string } | null,
  limit: number,
  today = saDay(),
  planId?: string,
): Promise<AdminPlan[]> {
  const rows = await db
    .select({
      plan: plans,
      lastCharge,
    })
    .from(plans)
    .where(
      and(
        filterOf(query.filter, today),
        planId ? eq(plans.id, planId) : undefined,
        query.status ? eq(plans.status, query.status) : undefined,
        query.q
          ? sql`(lower(${plans.customerEmail}) like ${containsPattern(query.q)} or lower(${plans.deliveryName}) like ${containsPattern(query.q)})`
          : undefined,
        after
          ? sql`(${plans.createdAt}, ${plans.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(plans.createdAt), desc(plans.id))
    .limit(limit);
  const boxes = await boxLinesOf(
    db,
    rows.map((row) => row.plan.id),
  );
  return rows.map(({ plan, lastCharge: charge }) => {
    const lines = boxes.get(plan.id) ?? [];
    return {
      id: plan.id,
      status: plan.status,
      mode: plan.mode,
      cadenceWeeks: plan.cadenceWeeks,
      nextDate: plan.nextDate,
      pausedUntil: plan.pausedUntil,
      createdAt: plan.createdAt.toISOString(),
      cancelReason: plan.cancelReason,
      customer: { userId: plan.userId, email: plan.customerEmail, name: plan.deliveryName, city: plan.deliveryCity },
      lines: lines.map((line) => ({ name: line.name, size: line.size, quantity: line.quantity })),
      nextTotalCents: planBoxTotals(lines).totalCents,
      lastCharge: charge,
    };
  });
}

/**
 * The dashboard's plans: how many are active; the boxes of active plans due from today to
 * BOXES_DUE_DAYS - 1 days ahead (an overdue one too), less dates already skipped or paid, with the
 * packs they need per product and size against what is left to sell; and MRR (MRR_METHOD_TEXT).
 */
export async function dashboardPlanFigures(db: Database, today = saDay()): Promise<DashboardPlans> {
  const active = await db
    .select({ id: plans.id, cadenceWeeks: plans.cadenceWeeks, nextDate: plans.nextDate })
    .from(plans)
    .where(eq(plans.status, "active"));
  const boxes = await boxLinesOf(
    db,
    active.map((plan) => plan.id),
  );
  const mrrCents = monthlyRecurringCents(
    active.map((plan) => ({
      totalCents: planBoxTotals(boxes.get(plan.id) ?? []).totalCents,
      cadenceWeeks: plan.cadenceWeeks,
    })),
  );
  const last = addDays(today, BOXES_DUE_DAYS - 1);
  const { rows: due } = await db.execute<{ id: string }>(sql`
    select p.id from plans p
    where p.status = 'active' and p.next_date <= ${last}::date
      and not exists (select 1 from plan_charges c
        where c.plan_id = p.id and c.delivery_date = p.next_date and c.status in ('paid', 'skipped'))`);
  const needed = new Map<string, { productId: string; productName: string; size: string; needed: number }>();
  for (const { id } of due) {
    for (const line of boxes.get(id) ?? []) {
      const key = `${line.productId}\u0000${line.size}`;
      const entry = needed.get(key) ?? {
        productId: line.productId,
        productName: line.name,
        size: line.size,
        needed: 0,
      };
      entry.needed += line.quantity;
      needed.set(key, entry);
    }
  }
  const wanted = [...needed.values()];
  const { rows: stock } = wanted.length
    ? await db.execute<{ product_id: string; size: string; left: number }>(sql`
        select product_id, size, greatest(quantity - held, 0)::int as left from product_stock
        where product_id in (${sql.join(
          wanted.map((entry) => sql`${entry.productId}::uuid`),
          sql`, `,
        )})`)
    : { rows: [] };
  const stockNeeded = wanted
    .map((entry) => {
      const onHand = stock.find((row) => row.product_id === entry.productId && row.size === entry.size)?.left ?? 0;
      return { ...entry, onHand, short: Math.max(entry.needed - onHand, 0) };
    })
    .sort((a, b) => b.short - a.short || a.productName.localeCompare(b.productName) || a.size.localeCompare(b.size));
  return {
    active: active.length,
    boxesDue: due.length,
    boxesDueDays: BOXES_DUE_DAYS,
    stockNeeded,
    mrr: centsToDecimal(mrrCents),
    mrrMethod: MRR_METHOD_TEXT,
  };
}
