import type { Feature } from "../platform/feature.js";
import { adminAuditRoutes } from "./admin-routes.js";

/** The audit trail's admin view (the writer is platform/audit.ts). */
export const audit: Feature = { name: "audit", adminRoutes: adminAuditRoutes };
