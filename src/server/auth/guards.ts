import type { FastifyReply, FastifyRequest } from "fastify";
import { recordAudit } from "../platform/audit.js";
import { forbidden, unauthorized } from "../platform/errors.js";
import { loggedUrl } from "../platform/request-logging.js";

/** The user behind a request's session (never taken from a header). */
export interface SessionUser {
  id: string;
  username: string;
  email: string;
  fullName: string;
  phone: string;
  address: string;
  city: string;
  zipCode: string;
  altPhone: string;
  complex: string;
  suburb: string;
  province: string;
  deliveryInstructions: string;
  isAdmin: boolean;
  createdAt: Date;
}

/**
 * The user of the session, or 401. The browser also sends `x-user-id` (docs/product.md §7): it
 * grants nothing, and one that names someone other than the session's user is refused.
 */
export function requireUser(request: FastifyRequest): SessionUser {
  const user = request.user;
  if (!user) throw unauthorized("Please log in to continue", "NOT_LOGGED_IN");
  const claimed = request.headers["x-user-id"];
  if (claimed !== undefined && claimed !== "" && claimed !== user.id) {
    throw unauthorized("Your session does not match the signed-in user. Please log in again.", "SESSION_MISMATCH");
  }
  return user;
}

/**
 * onRequest hook for the whole /api/admin subtree: 401 without a session, 403 for a customer. A
 * signed-in customer knocking on the admin's door is a security event: the audit trail keeps it.
 */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply) {
  const user = requireUser(request);
  if (!user.isAdmin) {
    await recordAudit(request.server.db, request, {
      action: "auth.admin_refused",
      after: { method: request.method, url: loggedUrl(request.url).slice(0, 300) },
    });
    throw forbidden("You do not have permission to access the admin panel");
  }
  requireEnrolledAdmin(request);
}

/** The signed-in user acting on their own account, or an admin; 401/403 otherwise. */
export function requireSelfOrAdmin(request: FastifyRequest, userId: string): SessionUser {
  const user = requireUser(request);
  if (user.id !== userId && !user.isAdmin) throw forbidden("You can only see your own account");
  return user;
}

/**
 * ADMIN_2FA=required: an admin without a second factor may not use the admin panel until they
 * enrol one from their profile (the /api/auth/2fa routes stay open to them).
 */
export function requireEnrolledAdmin(request: FastifyRequest): void {
  if (!request.server.config.adminSecondFactor.required || request.secondFactor?.enrolled) return;
  throw forbidden(
    "Set up two-step sign-in on your profile before using the admin panel.",
    "SECOND_FACTOR_ENROLMENT_REQUIRED",
  );
}
