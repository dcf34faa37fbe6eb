import type { EmailKind } from "../db/schema.js";
import type { AnyEmail, EmailDataByKind } from "./messages.js";

/** Each message's subject line, written to the outbox with the message (no template needed). */
export function subjectOf<K extends EmailKind>(kind: K, data: EmailDataByKind[K], shopName: string): string {
  const email = { kind, data } as AnyEmail;
  switch (email.kind) {
    case "order_confirmation":
      return `Your ${shopName} order ${email.data.orderNumber} is confirmed`;
    case "order_shipped":
      return `Your ${shopName} order ${email.data.orderNumber} is on its way`;
    case "order_refunded":
      return `Your ${shopName} refund for order ${email.data.orderNumber}`;
    case "password_reset":
      return `Reset your ${shopName} password`;
    case "email_change":
      return `Confirm your new ${shopName} e-mail address`;
    case "account_changed":
      return email.data.change === "password"
        ? `Your ${shopName} password was changed`
        : `Your ${shopName} e-mail address was changed`;
  }
}
