/**
 * What each error code means, for people: docs/api-errors.md is generated from this
 * (tests/api/error-codes.test.ts). Kept apart from the codes, so the storefront, which only needs
 * the names, does not ship these sentences in its first load. The type makes it name every code once.
 */
import type { ErrorCode } from "./error-codes.js";

export const ERROR_CODE_MEANINGS = {
  VALIDATION_FAILED: "A field is missing or not valid (400); the message names it.",
  MALFORMED_BODY: "The body is not valid JSON (400).",
  PAYLOAD_TOO_LARGE: "The body is larger than the shop takes (413).",
  UNSUPPORTED_MEDIA_TYPE: "The body is not sent as application/json (415).",
  DATA_REFUSED: "The database refused a value or a rule (400).",
  INVALID_CREDENTIALS: "Login: no account with that username or e-mail and password (401).",
  NOT_LOGGED_IN: "The request needs a signed-in session (401).",
  SESSION_MISMATCH: "x-user-id names another user than the session's (401).",
  TOKEN_REQUIRED: "GET /metrics: the Authorization: Bearer token (METRICS_TOKEN) is missing or wrong (401).",
  FORBIDDEN: "Signed in, but not allowed (403).",
  CROSS_SITE_REFUSED: "A state-changing request sent from another site (403).",
  NOT_FOUND: "No such thing, or no such route (404).",
  USERNAME_TAKEN: "Register or profile: the username is in use (409).",
  EMAIL_TAKEN: "Register or profile: the e-mail address is in use (409).",
  ALREADY_EXISTS: "Something with that name already exists (409).",
  CART_CHANGED: "Create-order: a price, size or availability changed; review the cart (409).",
  OUT_OF_STOCK: "Create-order: a line asks for more than is left; the message says how many are (409).",
  STOCK_HELD: "Admin product: stock set below what unpaid orders hold (409).",
  ORDER_STATUS_CONFLICT: "The order's status does not allow that move (409).",
  CATEGORY_IN_USE: "A category still has products (409).",
  CANNOT_DEMOTE_SELF: "Admin users: an admin cannot remove their own admin rights (409).",
  REFERENCE_CHANGED: "Something the request refers to changed or is gone (409).",
  RATE_LIMITED: "Too many attempts; wait (429, with Retry-After).",
  NOTIFICATION_REFUSED: "PayFast notify: the signature or source check failed (400).",
  REFUND_TOO_LARGE: "Refund: the amount is more than is left to refund of what was paid (409).",
  REFUND_IN_PROGRESS: "Refund: another refund of this order is under way; try again in a minute (409).",
  REFUND_ALREADY_RECORDED: "Refund: a refund with this PayFast reference is already recorded (409).",
  PAYFAST_REFUSED: "Refund: PayFast refused it; the message is PayFast's reason (409).",
  PAYFAST_UNAVAILABLE: "PayFast's API did not answer (502).",
  EMULATOR_LOCAL_ONLY: "The local PayFast emulator answers requests from the shop's own machine only (403).",
  RETURN_WINDOW_CLOSED: "Return: that reason's window is closed; the message says which are open (409).",
  RETURN_LINE_UNKNOWN: "Return: a line is unknown, named twice, or not for that reason (400).",
  RETURN_QUANTITY_TOO_LARGE: "Return: more units than are left to send back (409).",
  RETURN_ALREADY_REQUESTED: "Return: an open request already covers it (409).",
  RETURN_STATUS_CONFLICT: "Return: the request's status does not allow that step (409).",
  RETURN_DECLINE_FORBIDDEN: "Return: the law forbids declining it now (409).",
  RETURN_AMOUNT_FIXED: "Return: the law fixes this refund's amount (409).",
  SERVICE_UNAVAILABLE: "The database is unavailable or the shop is starting or stopping (503).",
  INTERNAL_ERROR: "Something failed on the shop's side (500); details are in the log.",
  RESET_LINK_INVALID: "Reset password: the link is unknown, expired or already used; ask for a new one (400).",
  PASSWORD_TOO_COMMON: "Sign up, reset or change password: the new password is in lists of leaked passwords (400).",
  CURRENT_PASSWORD_REQUIRED:
    "Profile: changing the e-mail address, downloading the data or closing the account needs the current password (400).",
  CURRENT_PASSWORD_WRONG:
    "Change password or e-mail, download my data, close my account: the current password is not right (400).",
  ACCOUNT_CLOSED: "Profile or admin rights: the account was closed by its customer; it cannot be changed (409).",
  ADMIN_ACCOUNT_CLOSE_REFUSED:
    "Close my account: an admin's account cannot be closed while it has admin rights; another admin removes them first (409).",
} as const satisfies Record<ErrorCode, string>;
