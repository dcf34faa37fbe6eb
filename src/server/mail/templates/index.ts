import { render } from "@react-email/components";
import { createElement, type ReactElement } from "react";
import type { EmailKind } from "#server/platform/db/schema.js";
import type { AnyEmail, EmailDataByKind, SendTimeData, ShopIdentity } from "../messages.js";
import { AccountChangedEmail } from "./account-changed.js";
import { BackInStockEmail, StockAlertConfirmEmail } from "./back-in-stock.js";
import { DeliveryUpdateEmail } from "./delivery-update.js";
import { EmailChangeEmail, EmailConfirmEmail, SignupAttemptEmail } from "./email-change.js";
import { LoginFailuresEmail } from "./login-failures.js";
import { OrderConfirmationEmail } from "./order-confirmation.js";
import { OrderRefundedEmail } from "./order-refunded.js";
import { OrderShippedEmail } from "./order-shipped.js";
import { OwnerAlertEmail } from "./owner-alert.js";
import { PasswordResetEmail } from "./password-reset.js";
import { PlanChangedByShopEmail } from "./plan-changed-by-shop.js";
import { PlanChargeProblemEmail } from "./plan-charge-problem.js";
import { PlanNextBoxEmail } from "./plan-next-box.js";
import { ReturnUpdateEmail } from "./return-update.js";

/** The message as sent: the HTML and a plain-text part with the same facts and every link written out. */
export async function renderEmail<K extends EmailKind>(
  kind: K,
  data: EmailDataByKind[K],
  shop: ShopIdentity,
  sendTime: SendTimeData,
): Promise<{ html: string; text: string }> {
  const element = emailElement({ kind, data } as AnyEmail, shop, sendTime);
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true, htmlToTextOptions: PLAIN_TEXT }),
  ]);
  return { html, text };
}

function emailElement(email: AnyEmail, shop: ShopIdentity, sendTime: SendTimeData): ReactElement {
  switch (email.kind) {
    case "order_confirmation":
      return createElement(OrderConfirmationEmail, { data: email.data, shop });
    case "order_shipped":
      return createElement(OrderShippedEmail, { data: email.data, shop });
    case "order_refunded":
      return createElement(OrderRefundedEmail, { data: email.data, shop });
    case "return_update":
      return createElement(ReturnUpdateEmail, { data: email.data, shop });
    case "password_reset":
      return createElement(PasswordResetEmail, { data: email.data, shop, sendTime });
    case "account_changed":
      return createElement(AccountChangedEmail, { data: email.data, shop });
    case "owner_alert":
      return createElement(OwnerAlertEmail, { data: email.data, shop });
    case "email_change":
      return createElement(EmailChangeEmail, { shop, sendTime });
    case "stock_alert_confirm":
      return createElement(StockAlertConfirmEmail, { data: email.data, shop });
    case "back_in_stock":
      return createElement(BackInStockEmail, { data: email.data, shop });
    case "email_confirm":
      return createElement(EmailConfirmEmail, { shop, sendTime });
    case "signup_attempt":
      return createElement(SignupAttemptEmail, { data: email.data, shop });
    case "login_failures":
      return createElement(LoginFailuresEmail, { data: email.data, shop });
    case "plan_next_box":
      return createElement(PlanNextBoxEmail, { data: email.data, shop });
    case "delivery_update":
      return createElement(DeliveryUpdateEmail, { data: email.data, shop });
    case "plan_charge_problem":
      return createElement(PlanChargeProblemEmail, { data: email.data, shop });
    case "plan_changed_by_shop":
      return createElement(PlanChangedByShopEmail, { data: email.data, shop });
  }
}

/** For the text part: amounts beside their labels, headings as written, phone numbers without "tel:". */
const PLAIN_TEXT = {
  selectors: [
    { selector: "h1", options: { uppercase: false } },
    { selector: "table.text-columns", format: "dataTable", options: { maxColumnWidth: 60, colSpacing: 4 } },
    { selector: 'a[href^="tel:"]', format: "anchor", options: { ignoreHref: true } },
  ],
};
