import type { ReturnReason } from "#domain/returns.js";
import type { NotifiedState } from "#domain/tracking.js";
import type { VatRateTotal } from "#domain/vat.js";
import type { EmailKind } from "../platform/db/schema.js";

/**
 * What each kind of message carries: the data written to the outbox with the event, from which
 * the message is rendered when it is sent (templates/). Amounts in cents.
 */

export interface EmailLine {
  name: string;
  size: string;
  quantity: number;
  unitPriceCents: number;
}

export interface EmailPromo {
  code: string;
  discountCents: number;
  deliveryDiscountCents: number;
}

export interface EmailDelivery {
  name: string;
  phone: string;
  address: string;
  city: string;
  province: string;
  zipCode: string;
  /** Absent from messages queued before the address had them, "" on orders placed before. */
  suburb?: string;
  complex?: string;
  deliveryInstructions?: string;
  altPhone?: string;
  /** The option chosen at checkout ("To a TCG Locker: Clicks Sandton Locker 2, 12 Main Road ..."); absent from older messages. */
  option?: string;
}

/**
 * Whether a message may greet its reader by name: only when the account asked for it after its
 * e-mail address was proven theirs (users.email_verified_at), and the message goes to that address.
 * Otherwise "Hello," (free-text.ts): anyone can sign up with someone else's address and any "name".
 * Missing in messages written before the rule: no name.
 */
export interface Greeting {
  greetByName?: boolean;
}

export interface OrderConfirmationData extends Greeting {
  orderId: string;
  /** As the shop shows it: the last 8 characters of the id, in capitals. */
  orderNumber: string;
  customerName: string;
  lines: EmailLine[];
  subtotalCents: number;
  /** Off the goods by multi-buy tiers (absent without a saving, and from messages written before tiers). */
  multibuyDiscountCents?: number;
  /** A promo code's: its name, what it took off the goods, the delivery fee it waived (absent without one). */
  promo?: EmailPromo;
  deliveryFeeCents: number;
  totalCents: number;
  /** The VAT included in the total: the sum of its lines' VAT (src/domain/vat.ts). */
  vatCents: number;
  /** The VAT per rate, as the invoice shows it (messages written before VAT per line have none). */
  vatByRate?: VatRateTotal[];
  delivery: EmailDelivery;
  paidAt: string;
  /** The policy versions the order was placed under ("Terms and Conditions, version 1 of ..." and /terms/v/1); absent in messages written before versioning. */
  policies?: { label: string; path: string }[];
}

export interface OrderShippedData extends Greeting {
  orderId: string;
  orderNumber: string;
  customerName: string;
  lines: EmailLine[];
  delivery: EmailDelivery;
  courier: string | null;
  trackingNumber: string | null;
  /** The courier's tracking page for this number, when the courier is a known one. */
  trackingUrl: string | null;
}

export interface OrderRefundedData extends Greeting {
  orderId: string;
  orderNumber: string;
  refundId: string;
  customerName: string;
  amountCents: number;
  /** Everything refunded of the order so far, this refund included, and what was paid. */
  refundedCents: number;
  totalCents: number;
  reason: string;
  /** "CN-000001": the credit note, downloadable from the order history. */
  creditNoteNumber: string;
  refundedAt: string;
}

/** What a return_update message tells the customer: the step a return, cancellation or complaint reached. */
export const RETURN_UPDATE_STEPS = [
  "requested",
  "accepted",
  "declined",
  "received",
  "refunded",
  "exchanged",
  "resolved",
  "out_of_stock",
] as const;
export type ReturnUpdateStep = (typeof RETURN_UPDATE_STEPS)[number];

export interface ReturnUpdateData extends Greeting {
  orderId: string;
  orderNumber: string;
  customerName: string;
  requestId: string;
  /** RET-000001. */
  reference: string;
  step: ReturnUpdateStep;
  reason: ReturnReason;
  /** The lines asked back (none for a complaint); a cancellation lists the whole order. */
  lines: EmailLine[];
  /** The last day the shop gives itself (South African day, YYYY-MM-DD). */
  deadlineDay: string;
  /** Accepted: the return instructions; declined: the reason; exchanged or resolved: the outcome. */
  note: string | null;
  /** Accepted: whether the shop pays for sending the goods back (defects) or the customer does. */
  shopPaysReturn: boolean;
  /** Refunded: the amount; requested: what the shop will refund, when it is fixed. */
  amountCents: number | null;
}

export interface PasswordResetData {
  /** The password_resets row; its token is made (and only its hash kept) when the message is sent. */
  resetId: string;
  /** Written by earlier versions; a reset message greets nobody by name. */
  name?: string;
}

export interface AccountChangedData extends Greeting {
  name: string;
  /** second_factor_locked: ten wrong two-step sign-in codes in a row locked the codes (auth/two-factor.ts). */
  change: "password" | "email" | "second_factor_locked";
  /** For an e-mail change, the new address (the notice goes to the old one). */
  newEmail: string | null;
  changedAt: string;
}

/**
 * login_failures: someone gave the account's password wrongly LOGIN_FAILURES_PER_ACCOUNT times
 * within a window (auth/login-failures.ts); at most one a day.
 */
export interface LoginFailuresData extends Greeting {
  name: string;
  failures: number;
  windowMinutes: number;
  at: string;
}

/** An alert to the shop's owner (src/server/alerts): a problem raised, or its resolved note. */
export interface OwnerAlertData {
  key: string;
  state: "raised" | "resolved";
  title: string;
  /** What the check saw and what to do about it. */
  detail: string;
  raisedAt: string;
  resolvedAt: string | null;
}

/** A link to confirm a new address, sent to that address (auth/email-change.ts). */
export interface EmailChangeData {
  /** The email_changes row; its token is made (and only its hash kept) when the message is sent. */
  changeId: string;
}

/**
 * email_confirm: the link mailed at sign-up (or by Resend on the profile) that proves the account's
 * address is its own; the same email_changes row and link as a change of address, to the address
 * the account already has.
 */
export type EmailConfirmData = EmailChangeData;

/**
 * signup_attempt: to an address someone tried to register again. Registration answers as for a new
 * account (it never says an address is a customer's), so the owner hears of it here. No name, and
 * nothing the person typed: it may be anyone.
 */
export interface SignupAttemptData {
  attemptedAt: string;
}

/** stock_alert_confirm: the link that confirms an alert asked for without logging in. */
export interface StockAlertConfirmData {
  productName: string;
  size: string;
  /** `{PUBLIC_URL}/stock-alerts/confirm?token=...`: signed, valid STOCK_ALERT_CONFIRM_HOURS. */
  confirmUrl: string;
  productUrl: string;
}

/** back_in_stock: the one message an alert sends when its size is back; the alert then ends. */
export interface BackInStockData {
  productName: string;
  size: string;
  productUrl: string;
  /** `{PUBLIC_URL}/stock-alerts/unsubscribe?token=...`: works without logging in. */
  unsubscribeUrl: string;
}

/**
 * plan_next_box: PLAN_NOTICE_DAYS before a nappy plan's charge (plans/next-box.ts), once per plan and
 * date: the box at today's prices, and a price that rose since the last box said plainly. A service
 * message the customer asked for with the plan, not marketing.
 */
export interface PlanNextBoxData extends Greeting {
  planId: string;
  customerName: string;
  /** The South African day of the charge (YYYY-MM-DD). */
  chargeDate: string;
  mode: "card" | "reminder";
  /** Each line at its plan price today, with the unit price of the last box when it was lower. */
  lines: (EmailLine & { previousUnitPriceCents: number | null })[];
  subtotalCents: number;
  deliveryFeeCents: number;
  totalCents: number;
  /** `{PUBLIC_URL}/profile?skip=...`: signed, works without logging in until the charge day. */
  skipUrl: string;
  /** My plans: `{PUBLIC_URL}/profile?tab=plans`. */
  changeUrl: string;
  /**
   * A reminder plan's one-click pay link, `{PUBLIC_URL}/checkout?pay=...`: signed, until the charge
   * day's end (plans/pay-link.ts); null for a card plan. Absent in messages written before it existed.
   */
  payUrl?: string | null;
}

/**
 * plan_changed_by_shop: an admin paused or cancelled a plan (the admin's Plans page), with the reason
 * they gave. A service message about the customer's own plan, not marketing.
 */
export interface PlanChangedByShopData extends Greeting {
  planId: string;
  customerName: string;
  change: "paused" | "cancelled";
  /** A pause's last day (YYYY-MM-DD, South African); null for a cancel. */
  until: string | null;
  reason: string;
  /** My plans: `{PUBLIC_URL}/profile?tab=plans`. */
  plansUrl: string;
}

/**
 * delivery_update: one message per order and step of its parcel (out for delivery, ready for
 * collection with the locker PIN, delivered, or a problem with what happens next). Names no product.
 */
export interface DeliveryUpdateData extends Greeting {
  orderId: string;
  orderNumber: string;
  customerName: string;
  step: NotifiedState;
  /** The chosen option in a line ("To a TCG Locker: Sandton Locker 2, 12 Main Road"). */
  option: string;
  waybillNumber: string;
  /** The locker's collection PIN (ready for collection at a locker). */
  pin?: string;
  /** A problem's next step (failed attempt, not collected, lost): src/domain/tracking.ts. */
  nextStep?: string;
  /** The tracking page's signed link: works without logging in until it expires. */
  trackingUrl: string;
  /** When the courier reported the step (ISO). */
  at: string;
}

/**
 * plan_charge_problem: a nappy plan's box could not be charged (plans/charge.ts), once per plan, date
 * and reason. "declined": the card was declined, a link to update it and the day it is tried again;
 * "needs_card": declined twice, or PayFast says the card agreement cannot be charged: a new card is
 * needed (the update link, or a new checkout); "out_of_stock": nothing was charged, a size is short,
 * the customer may pick another size or skip the box.
 */
export interface PlanChargeProblemData extends Greeting {
  planId: string;
  customerName: string;
  /** The box's South African day (YYYY-MM-DD). */
  chargeDate: string;
  reason: "declined" | "needs_card" | "out_of_stock";
  totalCents: number;
  /** PayFast's card-update page for the token (declined, needs_card); null when there is none. */
  updateCardUrl: string | null;
  /** "declined": the day it is charged again. */
  retryDate: string | null;
  /** "out_of_stock": what is short, and how many are left of each. */
  shortLines: { name: string; size: string; wanted: number; left: number }[];
  /** My plans: `{PUBLIC_URL}/profile?tab=plans`. */
  changeUrl: string;
}

export interface EmailDataByKind {
  order_confirmation: OrderConfirmationData;
  order_shipped: OrderShippedData;
  order_refunded: OrderRefundedData;
  return_update: ReturnUpdateData;
  password_reset: PasswordResetData;
  account_changed: AccountChangedData;
  owner_alert: OwnerAlertData;
  email_change: EmailChangeData;
  stock_alert_confirm: StockAlertConfirmData;
  back_in_stock: BackInStockData;
  email_confirm: EmailConfirmData;
  signup_attempt: SignupAttemptData;
  login_failures: LoginFailuresData;
  plan_next_box: PlanNextBoxData;
  delivery_update: DeliveryUpdateData;
  plan_charge_problem: PlanChargeProblemData;
  plan_changed_by_shop: PlanChangedByShopData;
}

/** What the sender adds when it sends: links that only exist then. */
export interface SendTimeData {
  /** password_reset: `{PUBLIC_URL}/reset-password?token=...`, valid RESET_MINUTES. */
  resetUrl?: string;
  /** email_change and email_confirm: `{PUBLIC_URL}/confirm-email?token=...`, valid EMAIL_CHANGE_HOURS. */
  confirmUrl?: string;
}

/** The shop as every message shows it (config: SHOP_*, PUBLIC_URL). */
export interface ShopIdentity {
  name: string;
  email: string;
  phone: string;
  address: string;
  publicUrl: string;
  /** SHOP_VAT_NUMBER is set: only then does a message speak of VAT (src/domain/vat-wording.ts). */
  vatRegistered: boolean;
}

/** How long a reset link works, from when it is sent. */
export const RESET_MINUTES = 30;

export type AnyEmail = { [K in EmailKind]: { kind: K; data: EmailDataByKind[K] } }[EmailKind];
