import { formatPlanDay } from "#domain/plans.js";
import type { NotifiedState } from "#domain/tracking.js";
import type { EmailKind } from "../platform/db/schema.js";
import type { AnyEmail, EmailDataByKind, ReturnUpdateStep } from "./messages.js";

/** What subjectFor needs of an outbox row. */
export interface SubjectSource {
  kind: EmailKind;
  data: Record<string, unknown>;
  /** The subject it went out with; null while it is queued. */
  subject: string | null;
}

/**
 * An outbox row's subject: the one it was sent (or captured) with, or, queued, the one it will be
 * sent with. Every reader of `emails.subject` (the admin, the data export, the sender) goes through it.
 */
export function subjectFor(row: SubjectSource, shopName: string): string {
  return row.subject ?? subjectOf(row.kind, row.data as unknown as EmailDataByKind[EmailKind], shopName);
}

/**
 * Each message's subject line, made by the sender when the message goes out (no template needed) and
 * kept on the row with it. A subject names the shop, the order or the request, never a product: what
 * someone buys can be health
 * information (POPIA s26), and subjects show on lock screens and in shared inboxes. The privacy
 * policy promises it; no-product-names.test.ts checks every kind, as it does the templates' previews.
 */
export function subjectOf<K extends EmailKind>(kind: K, data: EmailDataByKind[K], shopName: string): string {
  const email = { kind, data } as AnyEmail;
  switch (email.kind) {
    case "order_confirmation":
      return `Your ${shopName} order ${email.data.orderNumber} is confirmed`;
    case "order_shipped":
      return `Your ${shopName} order ${email.data.orderNumber} is on its way`;
    case "order_refunded":
      return `Your ${shopName} refund for order ${email.data.orderNumber}`;
    case "return_update":
      return returnUpdateSubject(email.data.step, email.data.reference, email.data.orderNumber, shopName);
    case "password_reset":
      return `Reset your ${shopName} password`;
    case "email_change":
      return `Confirm your new ${shopName} e-mail address`;
    case "account_changed":
      return email.data.change === "password"
        ? `Your ${shopName} password was changed`
        : email.data.change === "second_factor_locked"
          ? `Your ${shopName} sign-in codes are locked after wrong codes`
          : `Your ${shopName} e-mail address was changed`;
    case "login_failures":
      return `Someone is trying wrong passwords on your ${shopName} account`;
    case "owner_alert":
      return email.data.state === "raised"
        ? `[${shopName} alert] ${email.data.title}`
        : `[${shopName} resolved] ${email.data.title}`;
    case "stock_alert_confirm":
      return `Confirm your ${shopName} back-in-stock alert`;
    case "back_in_stock":
      return `Back in stock at ${shopName}: the size you asked about`;
    case "email_confirm":
      return `Confirm your e-mail address for ${shopName}`;
    case "plan_next_box":
      return `Your next ${shopName} box: ${formatPlanDay(email.data.chargeDate)}`;
    case "plan_charge_problem":
      return email.data.reason === "out_of_stock"
        ? `Your ${shopName} box of ${formatPlanDay(email.data.chargeDate)}: choose another size or skip`
        : `Your ${shopName} nappy plan: please update your card`;
    case "plan_changed_by_shop":
      return email.data.change === "paused"
        ? `Your ${shopName} nappy plan is paused`
        : `Your ${shopName} nappy plan is cancelled`;
    case "signup_attempt":
      return `Someone tried to sign up at ${shopName} with your address`;
    case "delivery_update":
      return deliveryUpdateSubject(email.data.step, email.data.orderNumber, shopName);
  }
}

function returnUpdateSubject(step: ReturnUpdateStep, reference: string, orderNumber: string, shopName: string): string {
  const about = `${reference} (order ${orderNumber})`;
  switch (step) {
    case "requested":
      return `We have your request ${about}`;
    case "accepted":
      return `Your ${shopName} request ${about} is accepted: what to do next`;
    case "declined":
      return `Your ${shopName} request ${about} was declined`;
    case "received":
      return `We have received your return ${about}`;
    case "refunded":
      return `Your ${shopName} request ${about} is refunded`;
    case "exchanged":
      return `Your ${shopName} exchange ${about} is on its way`;
    case "resolved":
      return `Your ${shopName} request ${about} is resolved`;
    case "out_of_stock":
      return `Sorry: we cannot fill your ${shopName} order ${orderNumber} (${reference})`;
  }
}

function deliveryUpdateSubject(step: NotifiedState, orderNumber: string, shopName: string): string {
  switch (step) {
    case "out_for_delivery":
      return `Your ${shopName} order ${orderNumber} is out for delivery today`;
    case "ready_for_collection":
      return `Your ${shopName} order ${orderNumber} is ready for collection`;
    case "delivered":
      return `Your ${shopName} order ${orderNumber} was delivered`;
    case "failed_attempt":
      return `We could not deliver your ${shopName} order ${orderNumber}: what happens next`;
    case "not_collected":
      return `Your ${shopName} order ${orderNumber} was not collected: what happens next`;
    case "lost":
      return `A problem with the delivery of your ${shopName} order ${orderNumber}`;
  }
}
