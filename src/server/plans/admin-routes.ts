import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_PLAN_PAGE_SIZE } from "#domain/limits.js";
import {
  adminPlan,
  adminPlanCancelInput,
  adminPlanListQuery,
  adminPlanPage,
  adminPlanParams,
  adminPlanPauseInput,
} from "#domain/schemas/admin-plans.js";
import { greetsByName } from "../mail/greeting.js";
import { enqueueEmail } from "../mail/outbox.js";
import { recordAudit } from "../platform/audit.js";
import { decodeCursor, encodeCursor } from "../platform/cursor.js";
import type { Transaction } from "../platform/db/client.js";
import { plans } from "../platform/db/schema.js";
import { notFound } from "../platform/errors.js";
import { adminPlansPage } from "./admin-queries.js";
import { cancelPlan, pausePlan } from "./changes.js";
import { CANCEL_PLAN_TOKENS_JOB } from "./payfast-cancel.js";

type PlanRow = typeof plans.$inferSelect;

/** Any customer's plan, its row locked for the admin's change. */
async function lockAnyPlan(tx: Transaction, planId: string): Promise<PlanRow> {
  const [row] = await tx.select().from(plans).where(eq(plans.id, planId)).for("update");
  if (!row) throw notFound("Plan not found");
  return row;
}

/**
 * /api/admin/plans (under the admin guard of admin/routes.ts): every plan, newest first, filtered
 * by charges due today or in doubt, and the owner's pause and cancel, each with a reason that is
 * audited and e-mailed to the customer. A cancel is the shopper's cancel (changes.ts cancelPlan):
 * the cancel sweep ends the card's token at PayFast.
 */
export const adminPlanRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/plans",
    { schema: { querystring: adminPlanListQuery, response: { 200: adminPlanPage } } },
    async (request) => {
      const { cursor, ...query } = request.query;
      const page = await adminPlansPage(app.db, query, cursor ? decodeCursor(cursor) : null, ADMIN_PLAN_PAGE_SIZE + 1);
      const shown = page.slice(0, ADMIN_PLAN_PAGE_SIZE);
      const last = shown.at(-1);
      return {
        plans: shown,
        nextCursor: page.length > ADMIN_PLAN_PAGE_SIZE && last ? encodeCursor(new Date(last.createdAt), last.id) : null,
      };
    },
  );

  /** One change by the owner: locked, made, audited and the customer's e-mail written, in one transaction. */
  const byOwner = async (
    request: FastifyRequest,
    planId: string,
    change: { kind: "paused"; until: string } | { kind: "cancelled" },
    reason: string,
  ) => {
    await app.db.transaction(async (tx) => {
      const before = await lockAnyPlan(tx, planId);
      if (change.kind === "paused") await pausePlan(tx, before, change.until);
      else await cancelPlan(tx, before, "admin");
      const [after] = await tx.select().from(plans).where(eq(plans.id, planId));
      await recordAudit(tx, request, {
        action: change.kind === "paused" ? "plan.paused" : "plan.cancelled",
        subject: { type: "plan", id: planId },
        before: { status: before.status, nextDate: before.nextDate, pausedUntil: before.pausedUntil },
        after: { status: after?.status, nextDate: after?.nextDate, pausedUntil: after?.pausedUntil ?? null, reason },
      });
      await enqueueEmail(tx, {
        kind: "plan_changed_by_shop",
        // One e-mail per change: a second pause of the same plan is another event.
        eventKey: `${planId}:${change.kind}:${Date.now()}`,
        to: before.customerEmail,
        data: {
          planId,
          customerName: before.deliveryName,
          greetByName: await greetsByName(tx, before.userId, before.customerEmail),
          change: change.kind,
          until: change.kind === "paused" ? change.until : null,
          reason,
          plansUrl: `${app.config.publicUrl}/profile?tab=plans`,
        },
      });
    });
    app.mail.wake();
    if (change.kind === "cancelled") void app.jobs.request(CANCEL_PLAN_TOKENS_JOB);
    const [found] = await adminPlansPage(app.db, { filter: "all" }, null, 1, undefined, planId);
    if (!found) throw notFound("Plan not found");
    return found;
  };

  app.post(
    "/plans/:planId/pause",
    { schema: { params: adminPlanParams, body: adminPlanPauseInput, response: { 200: adminPlan } } },
    async (request) =>
      byOwner(request, request.params.planId, { kind: "paused", until: request.body.until }, request.body.reason),
  );

  app.post(
    "/plans/:planId/cancel",
    { schema: { params: adminPlanParams, body: adminPlanCancelInput, response: { 200: adminPlan } } },
    async (request) => byOwner(request, request.params.planId, { kind: "cancelled" }, request.body.reason),
  );
};
