import type { Feature } from "../platform/feature.js";
import { adminPaymentRoutes } from "./admin-payments.js";
import { adminVatReportRoutes } from "./vat-report.js";

/** The admin's payments (Needs attention, payments booked by hand) and the VAT report. */
export const payments: Feature = {
  name: "payments",
  adminRoutes: async (admin) => {
    await admin.register(adminPaymentRoutes);
    await admin.register(adminVatReportRoutes);
  },
};
