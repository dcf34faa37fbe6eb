import { and, between, eq, inArray } from "drizzle-orm";
import { addDays, PLAN_NOTICE_DAYS, PLAN_SKIP_LINK_DAYS } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import { greetsByName } from "../mail/greeting.js";
import { enqueueEmail } from "../mail/outbox.js";
import type { Database } from "../platform/db/client.js";
import { planLines, plans } from "../platform/db/schema.js";
import { signPlanSkipLink } from "./links.js";
import { payLinkFor } from "./pay-link.js";
import { plansOfUser } from "./queries.js";

export const PLAN_NEXT_BOX_JOB = "plan-next-box";

/**
 * "Your next box" (the job runs hourly): every active plan charged within PLAN_NOTICE_DAYS gets one
 * e-mail for that date (the outbox's key is the plan and the date, so a rerun or a second instance
 * writes nothing new; a date moved gets its own). The total is at today's prices; a line whose plan
 * price rose since the last box paid says so. Answers how many were written.
 */
export async function sendNextBoxNotices(
  db: Database,
  shop: { publicUrl: string },
  signingKey: Buffer,
  today = saDay(),
): Promise<number> {
  const due = await db
    .select({ id: plans.id, userId: plans.userId, nextDate: plans.nextDate, email: plans.customerEmail })
    .from(plans)
    .where(
      and(eq(plans.status, "active"), between(plans.nextDate, addDays(today, 1), addDays(today, PLAN_NOTICE_DAYS))),
    )
    .limit(5_000);
  let written = 0;
  for (const row of due) {
    const [plan] = await plansOfUser(db, row.userId, row.id);
    if (!plan || plan.lines.length === 0) continue;
    const last = await db
      .select({ productId: planLines.productId, size: planLines.size, cents: planLines.lastUnitPriceCents })
      .from(planLines)
      .where(inArray(planLines.planId, [row.id]));
    // The link works until the end of the charge day, and never longer than PLAN_SKIP_LINK_DAYS.
    const expires = new Date(
      Math.min(Date.parse(`${addDays(row.nextDate, 1)}T00:00:00+02:00`), Date.now() + PLAN_SKIP_LINK_DAYS * 86_400_000),
    );
    const token = signPlanSkipLink(signingKey, { planId: row.id, date: row.nextDate }, expires);
    const [customer] = await db.select({ name: plans.deliveryName }).from(plans).where(eq(plans.id, row.id));
    const wrote = await enqueueEmail(db, {
      kind: "plan_next_box",
      eventKey: `${row.id}:${row.nextDate}`,
      to: row.email,
      data: {
        planId: row.id,
        customerName: customer?.name ?? "",
        greetByName: await greetsByName(db, row.userId, row.email),
        chargeDate: row.nextDate,
        mode: plan.mode,
        lines: plan.lines.map((line) => ({
          name: line.name,
          size: line.size,
          quantity: line.quantity,
          unitPriceCents: line.planPriceCents,
          previousUnitPriceCents:
            last.find((old) => old.productId === line.productId && old.size === line.size)?.cents ?? null,
        })),
        ...plan.next,
        skipUrl: `${shop.publicUrl}/profile?skip=${token}`,
        changeUrl: `${shop.publicUrl}/profile?tab=plans`,
        payUrl:
          plan.mode === "reminder"
            ? `${shop.publicUrl}/checkout?pay=${payLinkFor(signingKey, row.id, row.nextDate)}`
            : null,
      },
    });
    if (wrote) written += 1;
  }
  return written;
}
