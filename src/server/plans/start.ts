import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { addDays, type PlanMode } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import { copyAddress } from "../orders/delivery-address.js";
import type { NewOrder } from "../orders/place-order.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { planLines, plans } from "../platform/db/schema.js";

/** PayFast's tokens are UUIDs; anything else in a notification's `token` is not one to keep. */
const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function payfastToken(value: string | undefined | null): string | null {
  const token = value?.trim() ?? "";
  return TOKEN.test(token) ? token.toLowerCase() : null;
}

/**
 * The plan an order starts (create-order with `plan`): waiting for its first payment, with the
 * order's lines (already at plan prices) and delivery details. "card" plans are paid through a
 * tokenizing checkout; "reminder" plans (EFT) get a pay link for each box.
 */
export async function createPlanForOrder(
  db: Database,
  order: NewOrder,
  choice: { cadenceWeeks: number; mode: PlanMode; termsVersionId: number },
): Promise<string> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(plans)
      .values({
        userId: order.userId,
        mode: choice.mode,
        cadenceWeeks: choice.cadenceWeeks,
        nextDate: addDays(saDay(), choice.cadenceWeeks * 7),
        customerEmail: order.customerEmail,
        ...copyAddress(order),
        createdFromOrderId: order.id,
        termsVersionId: choice.termsVersionId,
      })
      .returning({ id: plans.id });
    if (!created) throw new Error("the plan was not written");
    await tx.insert(planLines).values(
      order.lines.map((line) => ({
        planId: created.id,
        productId: line.productId,
        size: line.size,
        quantity: line.quantity,
        lastUnitPriceCents: line.unitPriceCents,
      })),
    );
    return created.id;
  });
}

/**
 * The first box is paid (markOrderPaid, whichever way it became paid): the plan it started becomes
 * active, its first charge date counted from today. A token from PayFast's notification is kept
 * only when the plan has none: a replayed or late notification never replaces a live token, and
 * never cancels one. Paid without a token (EFT, or a card checkout that did not tokenize), the plan
 * sends pay links ("reminder"). A plan cancelled meanwhile stays cancelled; a token it receives is
 * kept so the cancel sweep (payfast-cancel.ts) ends it at PayFast too.
 */
export async function activatePlanOfOrder(tx: Transaction, orderId: string, token: string | null): Promise<void> {
  const [found] = await tx
    .select({ id: plans.id, status: plans.status, token: plans.payfastToken, cadenceWeeks: plans.cadenceWeeks })
    .from(plans)
    .where(eq(plans.createdFromOrderId, orderId))
    .for("update");
  if (!found) return;
  if (token && found.token === null) {
    await tx
      .update(plans)
      .set({ payfastToken: token, tokenStoredAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(plans.id, found.id), isNull(plans.payfastToken)));
  }
  if (found.status !== "pending_first_payment") return;
  await tx
    .update(plans)
    .set({
      status: "active",
      mode: token || found.token ? "card" : "reminder",
      nextDate: addDays(saDay(), found.cadenceWeeks * 7),
      updatedAt: sql`now()`,
    })
    .where(eq(plans.id, found.id));
}

/**
 * PayFast says the agreement behind a token is cancelled (a CANCELLED notification, the shopper or
 * the owner in PayFast's dashboard): the plan stops at once. Answers how many plans it ended.
 */
export async function cancelPlansOfToken(db: Database, token: string): Promise<number> {
  const ended = await db
    .update(plans)
    .set({
      status: "cancelled",
      pausedUntil: null,
      cancelledAt: sql`coalesce(${plans.cancelledAt}, now())`,
      cancelReason: sql`coalesce(${plans.cancelReason}, 'payfast')`,
      tokenCancelledAt: sql`coalesce(${plans.tokenCancelledAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(plans.payfastToken, token),
        inArray(plans.status, ["pending_first_payment", "active", "paused", "needs_card", "cancelled"]),
      ),
    )
    .returning({ id: plans.id });
  return ended.length;
}
