import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { planBoxTotals, planSavingBp, planUnitPriceCents } from "#domain/plans.js";
import type { Plan } from "#domain/schemas/plans.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { planLines, plans, products } from "../platform/db/schema.js";

/**
 * A customer's plans, newest first (or the one named), each with its lines at today's prices and
 * what its next box costs: the prices of the day less each product's plan saving, and the
 * delivery fee rule of every order (src/domain/plans.ts planBoxTotals).
 */
export async function plansOfUser(db: Database | Transaction, userId: string, planId?: string): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(plans)
    .where(planId ? and(eq(plans.userId, userId), eq(plans.id, planId)) : eq(plans.userId, userId))
    .orderBy(desc(plans.createdAt));
  if (rows.length === 0) return [];
  const lines = await db
    .select({
      planId: planLines.planId,
      productId: planLines.productId,
      size: planLines.size,
      quantity: planLines.quantity,
      name: products.name,
      slug: products.slug,
      priceCents: products.priceCents,
      sizePrices: products.sizePrices,
      sizes: products.sizes,
      maxPerOrder: products.maxPerOrder,
      planSavingBp: products.planSavingBp,
    })
    .from(planLines)
    .innerJoin(products, eq(products.id, planLines.productId))
    .where(
      inArray(
        planLines.planId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(planLines.id));
  return rows.map((row) => {
    const own = lines
      .filter((line) => line.planId === row.id)
      .map((line) => {
        const priceCents = line.sizePrices[line.size] ?? line.priceCents;
        const savingBp = planSavingBp(line.planSavingBp);
        return {
          productId: line.productId,
          name: line.name,
          slug: line.slug,
          size: line.size,
          quantity: line.quantity,
          priceCents,
          planPriceCents: planUnitPriceCents(priceCents, savingBp),
          savingBp,
          sizes: line.sizes,
          maxPerOrder: line.maxPerOrder,
        };
      });
    return {
      id: row.id,
      status: row.status,
      mode: row.mode,
      cadenceWeeks: row.cadenceWeeks,
      nextDate: row.nextDate,
      pausedUntil: row.pausedUntil,
      createdAt: row.createdAt.toISOString(),
      deliveryName: row.deliveryName,
      deliveryCity: row.deliveryCity,
      lines: own,
      next: planBoxTotals(own),
    };
  });
}
