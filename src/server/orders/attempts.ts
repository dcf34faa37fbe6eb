import type { FastifyReply, FastifyRequest } from "fastify";
import { attemptKeys, countAttempt } from "../auth/rate-limit.js";
import type { ShopApp } from "../platform/feature.js";

/**
 * Create-order and cancel: so many a minute per account and per client network
 * (docs/decisions/020-abuse-limits.md); checkout/ counts its create-order here too.
 */
export function countOrderAttempt(
  app: ShopApp,
  request: FastifyRequest,
  reply: FastifyReply,
  action: "create-order" | "cancel-order",
  userId: string,
) {
  return countAttempt(
    app.db,
    reply,
    attemptKeys(action, request, [{ userId }]),
    app.config.orderLimits.ratePerMinute,
    "Too many orders in a minute. Please wait a minute and try again.",
  );
}
