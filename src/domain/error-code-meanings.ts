/**
 * What each error code means, for people: docs/api-errors.md is generated from this
 * (tests/api/error-codes.test.ts). Kept apart from the codes, so the storefront, which only needs
 * the names, does not ship these sentences in its first load. The type makes it name every code once.
 */
import type { ErrorCode } from "./error-codes.js";

export const ERROR_CODE_MEANINGS = {
  VALIDATION_FAILED: "A field is missing or not valid (400); the message names it.",
  MALFORMED_BODY: "The body is not valid JSON (400).",
  PAYLOAD_TOO_LARGE:
    "The body is larger than the shop takes; a photo upload, over 10 MB, 50 megapixels or 20,000 pixels on a side (413).",
  UNSUPPORTED_MEDIA_TYPE: "The body is not sent as application/json (multipart/form-data for a photo upload) (415).",
  NOT_AN_IMAGE: "Photo upload: the file is not a JPEG, PNG or WebP image, whatever its name says (415).",
  IMAGE_TYPE_UNSUPPORTED: "Photo upload: a HEIC photo, which the shop cannot read; export it as JPEG (415).",
  IMAGE_SHAPE_UNSUPPORTED:
    "Photo upload: one side more than 10 times the other, too thin a strip for the photo's renditions; crop it (415).",
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
  DELIVERY_POINT_UNKNOWN:
    "Create-order: the chosen locker or pickup point is not in the courier's directory (409); choose another.",
  DELIVERY_POINT_CLOSED:
    "Create-order: the chosen locker or pickup point closed (or is full) since it was offered (409); the message names others nearby.",
  DELIVERY_UNAVAILABLE:
    "Create-order: the chosen delivery option is not on offer for this cart and address (a locker too small for the order, a locker or point in a shop that ships by hand) (409).",
  WAYBILL_REFUSED:
    "Create waybill: the courier refused the booking (a locker full, a point closed, an address it cannot place), or the order cannot be booked (not paid, already booked, a Pargo counter, a shop with COURIER_MODE=manual) (409); the message says which.",
  WAYBILL_IN_PROGRESS:
    "Create waybill: another request is booking this order's waybill right now (409); nothing was booked twice. Reload the order.",
  DELIVERY_BOX_LAST:
    "Admin delivery boxes: removing the only box left (409); orders are packed into the owner's boxes, so one must stay.",
  WEBHOOK_UNSIGNED: "A courier's tracking webhook without a valid signature (401); nothing changed.",
  CART_CHANGED: "Create-order: a price, size or availability changed; review the cart (409).",
  OUT_OF_STOCK: "Create-order: a line asks for more than is left; counts only up to 5 (409).",
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
  REFUND_LINE_UNKNOWN: "Refund: a line chosen is not a line of this order (400).",
  REFUND_LINE_TOO_LARGE:
    "Refund: more units of a line than were bought less those already credited, or more than is left of a line or of the delivery fee (409).",
  REFUND_LINES_MISMATCH: "Refund: the amount given is not the sum of the lines and delivery fee chosen (400).",
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
  RETURN_RECEIPT_DAY_INVALID:
    "Return: the day the goods were received is missing with no delivery recorded, after today, or before the order was sent (400).",
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
  LINE_LIMIT: "Create-order: more of a size than one order may take (409).",
  TOO_MANY_UNPAID_ORDERS: "Create-order: the account or network holds its most unpaid orders (409).",
  ACCOUNT_DISABLED: "Login: the account is disabled (403).",
  SECOND_FACTOR_REQUIRED: "Login: now the admin's 2FA code (401).",
  SECOND_FACTOR_WRONG: "The 2FA code is wrong or used (401).",
  STEP_UP_REQUIRED: "Admin: this needs a fresh 2FA code (403).",
  SECOND_FACTOR_ENROLMENT_REQUIRED: "Admin: set up 2FA first (403).",
  STEP_UP_PASSWORD_REQUIRED: "Admin without 2FA: confirm this with your password (403).",
  SECOND_FACTOR_LOCKED: "10 wrong 2FA codes: codes locked 15 min; recovery codes work (429).",
  CANNOT_DISABLE_SELF: "Admin users: not one's own account (409).",
  PROMO_UNKNOWN: "Promo code: unknown or off (400).",
  PROMO_NOT_STARTED: "Promo code: not started yet (400).",
  PROMO_EXPIRED: "Promo code: expired (400).",
  PROMO_MINIMUM_SPEND: "Promo code: minimum spend not reached (400).",
  PROMO_ALREADY_USED: "Promo code: used up by this customer (409).",
  PROMO_LIMIT_REACHED: "Promo code: used up (409).",
  PROMO_NOT_APPLICABLE: "Promo code: not for these products, or with a nappy plan (400).",
  STOCK_ALERT_SIZE_IN_STOCK: "Back-in-stock alert: that size is in stock now; buy it instead (409).",
  STOCK_ALERT_LIMIT: "Back-in-stock alert: the address already has the most open alerts it may (409).",
  STOCK_ALERT_LINK_INVALID: "Back-in-stock alert: the link is not ours, was changed, or has expired (400).",
  EMAIL_ALREADY_CONFIRMED: "Resend the confirmation link: the account's address is already confirmed (409).",
  STOCK_ALERT_WAITING_LIMIT:
    "Back-in-stock alert: this network has the most alerts waiting for their confirmation link; confirm one or wait for them to lapse (429).",
  CHILD_PROFILE_LIMIT: "Child profiles: the account already keeps the most children it may (409).",
  PLAN_STATUS_CONFLICT:
    "Nappy plans: the change does not fit the plan as it is now (cancelled, waiting for its first payment, not paused) (409).",
  PLAN_LINK_INVALID:
    "Nappy plans: the e-mail's skip link is not ours, was altered, has expired or its box is past (400).",
} as const satisfies Record<ErrorCode, string>;
