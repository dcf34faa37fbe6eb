import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sourceMatcher } from "./adapter.js";
import { confirmWithPayfast, processItn } from "./itn.js";

/**
 * POST /api/payfast/notify: PayFast's ITN (the notify_url). Answers 200 for an ITN it accepted,
 * recognised as a repeat, or ignored (a status other than COMPLETE), so PayFast stops re-sending;
 * 400 `{ message }` with the reason for a rejected one (the order is left untouched, the ITN is
 * recorded and logged). Live PayFast re-sends an ITN that got no 200, which is what we want
 * after a transient failure such as an unreachable validate endpoint.
 */
export const payfastRoutes: FastifyPluginAsyncZod = async (app) => {
  // PayFast posts a form. Keep the raw string: the ITN signature is over the fields in the order sent.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, body);
  });

  const context = {
    db: app.db,
    config: app.config,
    isPayfastSource: sourceMatcher(app.config.payfast.validRanges),
    confirm: confirmWithPayfast(app.config),
  };

  app.post("/notify", async (request, reply) => {
    const rawBody = typeof request.body === "string" ? request.body : "";
    const result = await processItn(context, rawBody, request.ip);
    const details = { orderId: result.orderId, pfPaymentId: result.pfPaymentId, sourceIp: request.ip };
    if (result.outcome === "rejected") {
      request.log.warn({ itn: details, reason: result.reason }, "PayFast ITN rejected");
      return reply.status(400).send({ message: `ITN rejected: ${result.reason}` });
    }
    request.log.info({ itn: details, outcome: result.outcome, reason: result.reason }, "PayFast ITN processed");
    return { outcome: result.outcome };
  });
};
