import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAdmin } from "../auth/guards.js";
import { requireFreshSecondFactor } from "../auth/two-factor.js";

const CATALOGUE_WRITES = /^\/api\/admin\/(products|categories)(\/|\?|$)/;

/**
 * Every /api/admin route: one hook guards the whole subtree (401 without a session, 403 for a
 * customer), and one asks for a fresh step-up (a code, or the password of an admin with no second
 * factor) before any route marked `config: { moneyMove }`: every refund, every payment booked by
 * hand, every tax invoice or credit note an admin makes (tests/api/money-routes.test.ts lists them).
 */
export const adminMount: FastifyPluginAsyncZod<{ routes: readonly FastifyPluginAsyncZod[] }> = async (
  app,
  { routes },
) => {
  app.addHook("onRequest", requireAdmin);
  // Each marked route gets the step-up as a preHandler of its own (after its body is checked), so the
  // route table shows which routes carry it (`printRoutes({ includeHooks: true })`).
  app.addHook("onRoute", (route) => {
    const moneyMove = route.config?.moneyMove;
    if (!moneyMove) return;
    const stepUpForMoneyMove = async (request: FastifyRequest) => {
      if (moneyMove === true || moneyMove(request)) requireFreshSecondFactor(request);
    };
    const own = route.preHandler;
    route.preHandler = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), stepUpForMoneyMove];
  });
  // Admin answers hold customers' details and change by the minute: never kept by a browser or proxy.
  app.addHook("onSend", async (request, reply) => {
    reply.header("cache-control", "no-store");
    // The catalogue trigger tells the cache about a write; the admin's next read must already see it.
    if (request.method !== "GET" && reply.statusCode < 400 && CATALOGUE_WRITES.test(request.url)) {
      await app.catalogCache.caughtUp();
    }
  });

  // Each feature's admin routes (its index.ts), in the order app.ts lists the features.
  for (const plugin of routes) await app.register(plugin);
};
