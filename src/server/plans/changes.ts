import { and, eq, inArray, sql } from "drizzle-orm";
import { PLAN_DATE_MAX_DAYS_AHEAD, PLAN_PAUSE_MAX_DAYS } from "#domain/limits.js";
import { addDays, laterDay, type PlanStatus } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import type { PlanChangeInput } from "#domain/schemas/plans.js";
import type { Transaction } from "../platform/db/client.js";
import { pgErrorCode, UNIQUE_VIOLATION } from "../platform/db/errors.js";
import { planCharges, planLines, plans, products } from "../platform/db/schema.js";
import { badRequest, conflict, notFound } from "../platform/errors.js";

type PlanRow = typeof plans.$inferSelect;

const STATUS_WORDS: Record<PlanStatus, string> = {
  pending_first_payment: "is waiting for its first payment",
  active: "is active",
  paused: "is paused",
  needs_card: "needs a card",
  cancelled: "is cancelled",
};

/** The customer's plan, its row locked for the change; another customer's plan is "not found". */
export async function lockPlan(tx: Transaction, userId: string, planId: string): Promise<PlanRow> {
  const [row] = await tx
    .select()
    .from(plans)
    .where(and(eq(plans.id, planId), eq(plans.userId, userId)))
    .for("update");
  if (!row) throw notFound("Plan not found");
  return row;
}

function requireStatus(row: PlanRow, allowed: readonly PlanStatus[], what: string): void {
  if (!allowed.includes(row.status)) {
    throw conflict(`This plan ${STATUS_WORDS[row.status]}, so it cannot ${what}.`, "PLAN_STATUS_CONFLICT");
  }
}

/** A day a customer picks: from tomorrow to `maxDays` ahead, or a 400 naming the limits. */
function dayWithin(day: string, field: string, maxDays: number): string {
  const today = saDay();
  const first = addDays(today, 1);
  const last = addDays(today, maxDays);
  if (day < first || day > last) throw badRequest(`${field} must be from ${first} to ${last}`);
  return day;
}

const conflictSkip = () =>
  conflict("That box is already being charged or was paid, so it cannot be skipped.", "PLAN_STATUS_CONFLICT");

/** Marks a delivery date as skipped: the unique (plan, date) key refuses it when that box is already charging or paid. */
async function recordSkip(tx: Transaction, planId: string, date: string): Promise<void> {
  try {
    // A box out of stock on its day was never charged: skipping it is the customer's other answer.
    const [written] = await tx
      .insert(planCharges)
      .values({ planId, deliveryDate: date, status: "skipped", settledAt: sql`now()` })
      .onConflictDoUpdate({
        target: [planCharges.planId, planCharges.deliveryDate],
        set: { status: "skipped", settledAt: sql`now()` },
        setWhere: sql`${planCharges.status} = 'out_of_stock'`,
      })
      .returning({ id: planCharges.id });
    if (!written) throw conflictSkip();
  } catch (error) {
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    throw conflictSkip();
  }
}

/** Skip the next box: its date is recorded as skipped and the plan moves on by its cadence. */
export async function skipNextBox(tx: Transaction, row: PlanRow, date = row.nextDate): Promise<string> {
  requireStatus(row, ["active", "needs_card"], "skip a box");
  if (date !== row.nextDate) throw badRequest("That box is no longer the plan's next one.", "PLAN_LINK_INVALID");
  await recordSkip(tx, row.id, row.nextDate);
  const next = addDays(row.nextDate, row.cadenceWeeks * 7);
  await tx.update(plans).set({ nextDate: next, updatedAt: sql`now()` }).where(eq(plans.id, row.id));
  return `Skipped the box of ${row.nextDate}.`;
}

/** Deliver now: the next box is charged today (the charging job takes it up), and the cadence counts from it. */
export async function deliverNow(tx: Transaction, row: PlanRow): Promise<string> {
  requireStatus(row, ["active"], "deliver now");
  const today = saDay();
  await tx.update(plans).set({ nextDate: today, updatedAt: sql`now()` }).where(eq(plans.id, row.id));
  return "Your next box is charged and packed today.";
}

export async function pausePlan(tx: Transaction, row: PlanRow, until: string): Promise<string> {
  requireStatus(row, ["active", "needs_card", "paused"], "be paused");
  dayWithin(until, "until", PLAN_PAUSE_MAX_DAYS);
  await tx
    .update(plans)
    .set({
      status: "paused",
      pausedUntil: until,
      nextDate: laterDay(row.nextDate, until),
      updatedAt: sql`now()`,
    })
    .where(eq(plans.id, row.id));
  return `Paused until ${until}: no box is charged before then.`;
}

export async function resumePlan(tx: Transaction, row: PlanRow): Promise<string> {
  requireStatus(row, ["paused"], "be resumed");
  const tomorrow = addDays(saDay(), 1);
  await tx
    .update(plans)
    .set({
      status: row.payfastToken || row.mode === "reminder" ? "active" : "needs_card",
      pausedUntil: null,
      nextDate: laterDay(row.nextDate, tomorrow),
      updatedAt: sql`now()`,
    })
    .where(eq(plans.id, row.id));
  return "Resumed.";
}

/**
 * The customer changed the card behind the token on PayFast's card-update page: a `needs_card` card
 * plan is active again with its box due today, so the next charging run charges it (a declined row of
 * today's date is due for its retry at once). PayFast tells the merchant nothing of a card update, so
 * the customer's word is what moves it; a card still declined makes it `needs_card` again.
 */
export async function cardUpdated(tx: Transaction, row: PlanRow): Promise<string> {
  requireStatus(row, ["needs_card"], "be charged again");
  if (row.mode !== "card" || !row.payfastToken) {
    throw conflict("This plan has no card at PayFast to charge: start a new plan at checkout.", "PLAN_STATUS_CONFLICT");
  }
  const today = saDay();
  await tx.update(plans).set({ status: "active", nextDate: today, updatedAt: sql`now()` }).where(eq(plans.id, row.id));
  await tx
    .update(planCharges)
    .set({ retryAt: sql`now()` })
    .where(
      and(eq(planCharges.planId, row.id), eq(planCharges.deliveryDate, today), eq(planCharges.status, "declined")),
    );
  return "Thank you: we charge your updated card for this box now.";
}

/** Cancelled at once, no fee; the card's token is ended at PayFast by the cancel sweep (payfast-cancel.ts). */
export async function cancelPlan(
  tx: Transaction,
  row: PlanRow,
  reason: "shopper" | "admin" | "account_closed",
): Promise<string> {
  requireStatus(row, ["pending_first_payment", "active", "paused", "needs_card"], "be cancelled");
  await tx
    .update(plans)
    .set({
      status: "cancelled",
      pausedUntil: null,
      cancelledAt: sql`now()`,
      cancelReason: reason,
      updatedAt: sql`now()`,
    })
    .where(eq(plans.id, row.id));
  return "Your plan is cancelled: no more boxes will be charged or sent.";
}

/** The date, the cadence and the box's lines, each checked against the limits and the products as they are now. */
export async function changePlan(tx: Transaction, row: PlanRow, change: PlanChangeInput): Promise<string> {
  requireStatus(row, ["active", "paused", "needs_card"], "be changed");
  const said: string[] = [];
  const set: Partial<typeof plans.$inferInsert> = {};
  if (change.nextDate !== undefined) {
    set.nextDate = dayWithin(change.nextDate, "nextDate", PLAN_DATE_MAX_DAYS_AHEAD);
    if (row.status === "paused" && row.pausedUntil && set.nextDate < row.pausedUntil) {
      throw badRequest(`nextDate must be on or after the end of the pause, ${row.pausedUntil}`);
    }
    said.push(`The next box is now on ${set.nextDate}.`);
  }
  if (change.cadenceWeeks !== undefined) {
    set.cadenceWeeks = change.cadenceWeeks;
    said.push(`Boxes now come every ${change.cadenceWeeks} weeks.`);
  }
  if (change.lines) {
    const wanted = mergeLines(change.lines);
    const found = await tx
      .select({ id: products.id, name: products.name, sizes: products.sizes, maxPerOrder: products.maxPerOrder })
      .from(products)
      .where(
        inArray(
          products.id,
          wanted.map((line) => line.productId),
        ),
      );
    for (const line of wanted) {
      const product = found.find((candidate) => candidate.id === line.productId);
      if (!product) throw badRequest("A product in lines is no longer sold.");
      if (!product.sizes.includes(line.size)) {
        throw badRequest(`"${product.name}" is not sold in size "${line.size}".`);
      }
      if (line.quantity > product.maxPerOrder) {
        throw badRequest(`"${product.name}" (${line.size}): at most ${product.maxPerOrder} packs in one box.`);
      }
    }
    const before = await tx.select().from(planLines).where(eq(planLines.planId, row.id));
    await tx.delete(planLines).where(eq(planLines.planId, row.id));
    await tx.insert(planLines).values(
      wanted.map((line) => ({
        planId: row.id,
        ...line,
        lastUnitPriceCents:
          before.find((old) => old.productId === line.productId && old.size === line.size)?.lastUnitPriceCents ?? null,
      })),
    );
    said.push("The box's contents are changed.");
  }
  await tx
    .update(plans)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(plans.id, row.id));
  return said.join(" ");
}

/** The same product and size twice is one line of both quantities. */
function mergeLines(lines: NonNullable<PlanChangeInput["lines"]>) {
  const merged = new Map<string, { productId: string; size: string; quantity: number }>();
  for (const line of lines) {
    const key = `${line.productId}\u0000${line.size}`;
    const existing = merged.get(key);
    if (existing) existing.quantity += line.quantity;
    else merged.set(key, { ...line });
  }
  return [...merged.values()];
}
