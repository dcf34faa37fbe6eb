import { documentIssuer } from "../orders/issued-documents.js";
import type { ResolveHost } from "../payfast/itn-sources.js";
import { trackPayfastProblem } from "../payfast/problems.js";
import type { Feature } from "../platform/feature.js";
import { adminCancelRefundRoutes } from "./admin-cancel-and-refund.js";
import { adminOrderMoveRoutes } from "./admin-order-moves.js";
import { adminPaymentRoutes } from "./admin-payments.js";
import { bookPayment } from "./book-payment.js";
import { payfastRoutes } from "./itn-routes.js";
import { reconcilePayfast } from "./reconcile.js";
import { refundContextOf, settleRequestedRefunds } from "./refunds.js";
import { adminReturnRefundRoutes } from "./return-refunds.js";
import { adminVatReportRoutes } from "./vat-report.js";

export interface PaymentsOptions {
  /** Looks up PayFast's host names for the ITN source check (tests pass a fake; default: system DNS). */
  resolveHost?: ResolveHost | undefined;
}

/**
 * Payments (payments/README.md): PayFast's notifications booked, an order marked paid, refunds, the
 * reconciliation of payments whose notification never came, the admin's payments, order moves and
 * refunds, and the VAT report. PayFast itself (form, signature, API, emulator) is payfast/.
 */
export const payments = ({ resolveHost }: PaymentsOptions = {}): Feature => ({
  name: "payments",
  setup: (app) => {
    const { config, db } = app;
    app.decorate("bookPayment", bookPayment);
    // The reconciliation sweep asks PayFast's API about orders whose notification never came.
    const everyMs = config.payfast.reconcileMinutes * 60_000;
    app.decorate("reconcilePayfast", (orderIds?: readonly string[]) =>
      reconcilePayfast({ db, api: app.payfastApi, log: app.log, everyMs, issuer: documentIssuer(config) }, orderIds),
    );
  },
  // PayFast's notifications are server-to-server: no cookie, no browser cross-site check.
  publicRoutes: async (api) => void (await api.register(payfastRoutes, { prefix: "/payfast", resolveHost })),
  adminRoutes: async (admin) => {
    await admin.register(adminPaymentRoutes);
    await admin.register(adminVatReportRoutes);
    await admin.register(adminOrderMoveRoutes);
    await admin.register(adminCancelRefundRoutes);
    await admin.register(adminReturnRefundRoutes);
  },
  jobs: (app) => [
    {
      name: "payfast-reconcile",
      everyMs: app.config.payfast.reconcileMinutes * 60_000,
      run: async () => {
        const { db, log } = app;
        try {
          // A refund left in doubt (PayFast did not answer) is settled from PayFast's balance, then payments are
          // matched: always, so a refund PayFast will not answer about never keeps a payment from being booked.
          const unsettled = await settleRequestedRefunds(refundContextOf(app, log)).then(
            () => null,
            (error: unknown) => error,
          );
          await app.reconcilePayfast();
          // Nappy plan charges PayFast did not answer about (plans/reconcile-charges.ts).
          await app.plans.settleCharges();
          if (unsettled) throw unsettled;
        } catch (error) {
          const detail = `PayFast's API did not answer the reconciliation (${error instanceof Error ? error.message : String(error)}). Payments whose notification did not arrive or could not be confirmed wait until it answers; check them in your PayFast dashboard.`;
          await trackPayfastProblem(db, log, "api", { ok: false, detail });
          throw error;
        }
        await trackPayfastProblem(db, log, "api", { ok: true });
      },
    },
  ],
});
