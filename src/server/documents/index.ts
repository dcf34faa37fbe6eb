import type { Feature } from "../platform/feature.js";
import { adminInvoiceCorrectionRoutes } from "./admin-invoice-corrections.js";

/** Tax invoices and credit notes as issued records (documents/README.md). */
export const documents: Feature = { name: "documents", adminRoutes: adminInvoiceCorrectionRoutes };
