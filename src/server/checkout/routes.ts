import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createOrderAnswer, createOrderInput } from "#domain/schemas/orders.js";
import { requireUser } from "../auth/guards.js";
import { countOrderAttempt } from "../orders/attempts.js";
import { productsForOrderQuery } from "../orders/queries.js";
import { planLinkKey } from "../plans/links.js";
import { placeCheckoutOrder } from "./place.js";

/** POST /api/create-order: its steps are place.ts. */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const checkout = { app, findProducts: productsForOrderQuery(app.db), planKey: planLinkKey(app.db) };
  // An order carries a name, a phone number and an address: no shared cache may keep it.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.post(
    "/create-order",
    { schema: { body: createOrderInput, response: { 200: createOrderAnswer } } },
    async (request, reply) => {
      const user = requireUser(request);
      // Counted after the checks that need no database, as before the split (place.ts checkRequest).
      return placeCheckoutOrder(checkout, request, user, request.body, () =>
        countOrderAttempt(app, request, reply, "create-order", user.id),
      );
    },
  );
};
