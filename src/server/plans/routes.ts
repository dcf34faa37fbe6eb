import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { formatRand } from "#domain/money.js";
import { formatPlanDay } from "#domain/plans.js";
import {
  plan,
  planChangeInput,
  planLinkAnswer,
  planLinkInput,
  planParams,
  planPauseInput,
  planPayBox,
} from "#domain/schemas/plans.js";
import { requireUser } from "../auth/guards.js";
import type { Transaction } from "../platform/db/client.js";
import { plans } from "../platform/db/schema.js";
import { badRequest, forbidden, notFound } from "../platform/errors.js";
import {
  cancelPlan,
  cardUpdated,
  changePlan,
  deliverNow,
  lockPlan,
  pausePlan,
  resumePlan,
  skipNextBox,
} from "./changes.js";
import { PLAN_CHARGE_JOB } from "./charge.js";
import { planLinkKey, readPlanSkipLink } from "./links.js";
import { payLinkBox } from "./pay-link.js";
import { CANCEL_PLAN_TOKENS_JOB } from "./payfast-cancel.js";
import { plansOfUser } from "./queries.js";

const LINK_INVALID =
  "This skip link has expired, was changed, or its box is past. Open My plans to skip or change a box.";

/**
 * /api/users/:id/plans...: a customer's own nappy plans (only theirs: an admin acts on plans from the
 * admin's Plans page, not as the customer). Each change answers the plan with `effect`: what it did
 * and what the next charge is now, at today's prices.
 */
export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preValidation", async (request) => {
    const { id } = request.params as { id?: string };
    const user = requireUser(request);
    if (id !== undefined && user.id !== id) throw forbidden("You can only see your own plans");
  });
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get(
    "/:id/plans",
    { schema: { params: z.object({ id: z.uuid() }), response: { 200: z.array(plan) } } },
    async (request) => plansOfUser(app.db, request.params.id),
  );

  /** Runs one change in a transaction with the plan's row locked, then answers the plan and its effect. */
  const change =
    (act: (tx: Transaction, row: Awaited<ReturnType<typeof lockPlan>>, body: never) => Promise<string>) =>
    async (request: { params: { id: string; planId: string }; body?: unknown }) => {
      const { id, planId } = request.params;
      const said = await app.db.transaction(async (tx) =>
        act(tx, await lockPlan(tx, id, planId), request.body as never),
      );
      return withEffect(id, planId, said);
    };

  const withEffect = async (userId: string, planId: string, said: string) => {
    const [found] = await plansOfUser(app.db, userId, planId);
    if (!found) throw notFound("Plan not found");
    const next =
      found.status === "cancelled"
        ? ""
        : ` Next box: ${formatPlanDay(found.nextDate)}, ${formatRand(found.next.totalCents)} at today's prices.`;
    return { ...found, effect: `${said}${next}` };
  };

  const schema = (body?: z.ZodType) => ({
    params: planParams,
    ...(body ? { body } : {}),
    response: { 200: plan },
  });

  app.patch(
    "/:id/plans/:planId",
    { schema: schema(planChangeInput) },
    change((tx, row, body) => changePlan(tx, row, body)),
  );
  app.post(
    "/:id/plans/:planId/skip",
    { schema: schema() },
    change((tx, row) => skipNextBox(tx, row)),
  );
  app.post(
    "/:id/plans/:planId/deliver-now",
    { schema: schema() },
    change((tx, row) => deliverNow(tx, row)),
  );
  app.post(
    "/:id/plans/:planId/pause",
    { schema: schema(planPauseInput) },
    change((tx, row, body: { until: string }) => pausePlan(tx, row, body.until)),
  );
  app.post(
    "/:id/plans/:planId/resume",
    { schema: schema() },
    change((tx, row) => resumePlan(tx, row)),
  );
  // Back from PayFast's card-update page (or the customer's "I've updated my card"): charged again.
  app.post("/:id/plans/:planId/card-updated", { schema: schema() }, async (request) => {
    const answer = await change((tx, row) => cardUpdated(tx, row))(request);
    void app.jobs.request(PLAN_CHARGE_JOB);
    return answer;
  });
  app.post("/:id/plans/:planId/cancel", { schema: schema() }, async (request) => {
    const answer = await change((tx, row) => cancelPlan(tx, row, "shopper"))(request);
    void app.jobs.request(CANCEL_PLAN_TOKENS_JOB);
    return answer;
  });
};

/**
 * /api/plan-links/skip: the "your next box" e-mail's skip link, no login needed. GET says which box
 * the link skips (the page shows it before the button); POST skips it. Either answers 400
 * PLAN_LINK_INVALID for a link that is not ours, altered, expired, or whose box is no longer next.
 */
export const planLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = planLinkKey(app.db);
  const read = async (token: string) => {
    const link = readPlanSkipLink(await key(), token);
    if (!link) throw badRequest(LINK_INVALID, "PLAN_LINK_INVALID");
    return link;
  };
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  // The pay link's box, for the checkout's cart: the customer's own plan, so a login is needed.
  app.get("/pay", { schema: { querystring: planLinkInput, response: { 200: planPayBox } } }, async (request) => {
    const user = requireUser(request);
    const box = await payLinkBox(app.db, await key(), request.query.token, user.id);
    return { ...box, message: `Pay for your nappy plan's box of ${formatPlanDay(box.date)}.` };
  });

  app.get("/skip", { schema: { querystring: planLinkInput, response: { 200: planLinkAnswer } } }, async (request) => {
    const link = await read(request.query.token);
    return { message: `Skip the box of ${formatPlanDay(link.date)}?`, nextDate: link.date };
  });

  app.post("/skip", { schema: { body: planLinkInput, response: { 200: planLinkAnswer } } }, async (request) => {
    const link = await read(request.body.token);
    const said = await app.db.transaction(async (tx) => {
      const [owner] = await tx.select({ userId: plans.userId }).from(plans).where(eq(plans.id, link.planId));
      if (!owner) throw badRequest(LINK_INVALID, "PLAN_LINK_INVALID");
      const locked = await lockPlan(tx, owner.userId, link.planId);
      if (locked.nextDate !== link.date || !["active", "needs_card"].includes(locked.status)) {
        throw badRequest(LINK_INVALID, "PLAN_LINK_INVALID");
      }
      return skipNextBox(tx, locked, link.date);
    });
    return { message: said, nextDate: link.date };
  });
};
