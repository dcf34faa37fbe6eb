import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAdmin } from "../auth/guards.js";
import { requireFreshSecondFactor } from "../auth/two-factor.js";
import { adminLaunchChecklistRoutes } from "../launch-checklist/routes.js";
import { adminMediaRoutes } from "../media/routes.js";
import { adminPlanRoutes } from "../plans/admin-routes.js";
import { adminPromoRoutes } from "../promo/routes.js";
import { adminReturnRoutes } from "../returns/routes.js";
import { adminAuditRoutes } from "./audit.js";
import { adminCancelRefundRoutes } from "./cancel-and-refund.js";
import { adminCategoryRoutes } from "./categories.js";
import { adminDashboardRoutes } from "./dashboard.js";
import { adminDeliveryBoxRoutes } from "./delivery-boxes.js";
import { adminDeliveryCostRoutes } from "./delivery-costs.js";
import { adminEmailRoutes } from "./emails.js";
import { adminHolderRoutes } from "./holders.js";
import { adminInvoiceCorrectionRoutes } from "./invoice-corrections.js";
import { adminOrderExportRoutes } from "./order-export.js";
import { adminOrderRoutes } from "./orders.js";
import { adminPaymentRoutes } from "./payments.js";
import { adminProductRoutes } from "./products.js";
import { adminSecondFactorRoutes } from "./second-factor.js";
import { adminUserRoutes } from "./users.js";
import { adminVatReportRoutes } from "./vat-report.js";
import { adminWaybillRoutes } from "./waybills.js";

const CATALOGUE_WRITES = /^\/api\/admin\/(products|categories)(\/|\?|$)/;

/**
 * Every /api/admin route: one hook guards the whole subtree (401 without a session, 403 for a
 * customer), and one asks for a fresh step-up (a code, or the password of an admin with no second
 * factor) before any route marked `config: { moneyMove }`: every refund, every payment booked by
 * hand, every tax invoice or credit note an admin makes (tests/api/money-routes.test.ts lists them).
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
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

  await app.register(adminOrderRoutes);
  await app.register(adminWaybillRoutes);
  await app.register(adminCancelRefundRoutes);
  await app.register(adminInvoiceCorrectionRoutes);
  await app.register(adminReturnRoutes);
  await app.register(adminOrderExportRoutes);
  await app.register(adminPaymentRoutes);
  await app.register(adminProductRoutes);
  await app.register(adminMediaRoutes, { store: app.media });
  await app.register(adminCategoryRoutes);
  await app.register(adminUserRoutes);
  await app.register(adminHolderRoutes);
  await app.register(adminSecondFactorRoutes);
  await app.register(adminEmailRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminDashboardRoutes);
  await app.register(adminVatReportRoutes);
  await app.register(adminDeliveryBoxRoutes);
  await app.register(adminDeliveryCostRoutes);
  await app.register(adminPromoRoutes);
  await app.register(adminPlanRoutes);
  await app.register(adminLaunchChecklistRoutes, { content: app.launchChecklist });
};
