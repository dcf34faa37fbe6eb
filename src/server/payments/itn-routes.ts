import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { countAttempt } from "../auth/rate-limit.js";
import { ItnSources, type ResolveHost } from "../payfast/itn-sources.js";
import { trackPayfastProblem } from "../payfast/problems.js";
import { payfastUserAgent } from "../payfast/user-agent.js";
import { clientNetwork } from "../platform/client-network.js";
import { confirmWithPayfast, processItn } from "./itn.js";

/** Refused notifications allowed per source address (an IPv6 /64) and minute before 429 (and nothing is stored). */
const REFUSED_PER_MINUTE = 20;

export interface PayfastRoutesOptions {
  /** Looks up PayFast's host names (tests give a fake; the default asks the system's DNS). */
  resolveHost?: ResolveHost | undefined;
}

/**
 * POST /api/payfast/notify: PayFast's ITN (the notify_url). It is server-to-server, so it lives
 * outside the browser's cross-site check (a real ITN carries a PayFast Referer) and needs no
 * cookie. A notification that fails the signature or source check gets 400 with a generic
 * message; every other one is recorded and answered 200, whatever its outcome, so PayFast stops
 * re-sending it. The answer never says why: that goes to the log and the record.
 */
export const payfastRoutes: FastifyPluginAsyncZod<PayfastRoutesOptions> = async (app, options) => {
  // PayFast posts a form. Keep the raw string: the ITN signature is over the fields in the order sent.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, body);
  });

  const sources = new ItnSources({
    ranges: app.config.payfast.validRanges,
    hosts: app.config.payfast.sourceHosts,
    resolve: options.resolveHost,
    log: app.log,
    // None of PayFast's hosts resolving is "Needs attention": only the listed ranges are left.
    onRefreshed: (resolvedHosts) =>
      trackPayfastProblem(
        app.db,
        app.log,
        "dns",
        resolvedHosts > 0
          ? { ok: true }
          : {
              ok: false,
              detail: `None of PayFast's hosts (${app.config.payfast.sourceHosts.join(", ")}) could be looked up: notifications are checked against PayFast's listed addresses only, and any other is confirmed with PayFast before it is booked.`,
            },
      ),
  });
  app.addHook("onReady", async () => {
    await sources.start();
    if (app.config.payfast.sourceHosts.length > 0) {
      app.log.info({ addresses: sources.resolvedAddresses() }, "PayFast source check: host addresses resolved");
    }
  });
  app.addHook("onClose", () => sources.stop());

  const context = {
    db: app.db,
    config: app.config,
    isPayfastSource: (address: string) => sources.isPayfastSource(address),
    confirm: confirmWithPayfast(app.config, payfastUserAgent(app.config.shop.name, app.config.publicUrl)),
    pendingHoldHours: app.config.orderPendingHoldHours,
  };

  app.post("/notify", async (request, reply) => {
    const rawBody = typeof request.body === "string" ? request.body : "";
    const referer = request.headers.referer ?? null;
    const result = await processItn(context, {
      rawBody,
      sourceIp: request.ip,
      referer,
      // Counted before the refusal is stored: past the limit, a flood answers 429 and stores nothing.
      beforeRefusal: () =>
        countAttempt(app.db, reply, [`itn-refused:ip:${clientNetwork(request.ip)}`], REFUSED_PER_MINUTE),
    });
    const details = { orderId: result.orderId, pfPaymentId: result.pfPaymentId, sourceIp: request.ip, referer };
    if (result.outcome === "rejected" || result.outcome === "source_refused") {
      request.log.warn({ itn: details, reason: result.reason }, "PayFast ITN refused");
      return reply.status(400).send({ message: "Notification refused", code: "NOTIFICATION_REFUSED" });
    }
    request.log.info({ itn: details, outcome: result.outcome, reason: result.reason }, "PayFast ITN processed");
    // A payment that paid an order wrote its confirmation: send it now rather than at the next run.
    if (result.outcome === "accepted" || result.outcome === "paid_out_of_stock") app.mail.wake();
    return { message: "Notification received" };
  });
};
