/**
 * The stable, machine-readable `code` of every error answer (`{ message, code }`). Clients branch
 * on these, never on the message, which is for people and may change. docs/api-errors.md lists
 * them with their statuses.
 */
export const ERROR_CODES = [
  "VALIDATION_FAILED",
  "MALFORMED_BODY",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "DATA_REFUSED",
  "INVALID_CREDENTIALS",
  "NOT_LOGGED_IN",
  "SESSION_MISMATCH",
  "TOKEN_REQUIRED",
  "FORBIDDEN",
  "CROSS_SITE_REFUSED",
  "NOT_FOUND",
  "USERNAME_TAKEN",
  "EMAIL_TAKEN",
  "ALREADY_EXISTS",
  "CART_CHANGED",
  "OUT_OF_STOCK",
  "STOCK_HELD",
  "ORDER_STATUS_CONFLICT",
  "CATEGORY_IN_USE",
  "CANNOT_DEMOTE_SELF",
  "REFERENCE_CHANGED",
  "RATE_LIMITED",
  "NOTIFICATION_REFUSED",
  "REFUND_TOO_LARGE",
  "REFUND_IN_PROGRESS",
  "REFUND_ALREADY_RECORDED",
  "PAYFAST_REFUSED",
  "PAYFAST_UNAVAILABLE",
  "EMULATOR_LOCAL_ONLY",
  "RETURN_WINDOW_CLOSED",
  "RETURN_LINE_UNKNOWN",
  "RETURN_QUANTITY_TOO_LARGE",
  "RETURN_ALREADY_REQUESTED",
  "RETURN_STATUS_CONFLICT",
  "RETURN_DECLINE_FORBIDDEN",
  "RETURN_AMOUNT_FIXED",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_ERROR",
  "RESET_LINK_INVALID",
  "PASSWORD_TOO_COMMON",
  "CURRENT_PASSWORD_REQUIRED",
  "CURRENT_PASSWORD_WRONG",
  "ACCOUNT_CLOSED",
  "ADMIN_ACCOUNT_CLOSE_REFUSED",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && KNOWN.has(value);
}
