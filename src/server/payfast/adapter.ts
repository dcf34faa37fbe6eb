import { centsToDecimal } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import type { Config } from "../platform/config.js";
import { CHECKOUT_FIELD_ORDER, checkoutSignature } from "./signature.js";

/** Where the browser posts the checkout form and where ITNs are confirmed, per mode. */
const HOSTS = {
  sandbox: "https://sandbox.payfast.co.za",
  live: "https://www.payfast.co.za",
} as const;

export function payfastProcessUrl(config: Config): string {
  const { mode } = config.payfast;
  return mode === "local" ? `${config.publicUrl}/payfast-emulator/eng/process` : `${HOSTS[mode]}/eng/process`;
}

export function payfastValidateUrl(config: Config): string {
  const { mode, validateUrl } = config.payfast;
  if (validateUrl) return validateUrl;
  return mode === "local"
    ? `${config.publicUrl}/payfast-emulator/eng/query/validate`
    : `${HOSTS[mode]}/eng/query/validate`;
}

export function payfastNotifyUrl(config: Config): string {
  return `${config.publicUrl}/api/payfast/notify`;
}

/** What the checkout form needs to know about an order. */
export interface CheckoutOrder {
  id: string;
  totalCents: number;
  customerEmail: string;
  deliveryName: string;
  deliveryPhone: string;
  items: readonly { name: string; size: string; quantity: number }[];
  /**
   * Keep the card for later charges (a nappy plan's next boxes): PayFast's tokenization,
   * `subscription_type=2`, card only; PayFast answers with a token in the notification and the
   * shop charges it through the Subscriptions API (docs/decisions/049).
   */
  tokenize?: boolean;
}

export class TokenizationNeedsPassphraseError extends Error {
  override name = "TokenizationNeedsPassphraseError";
  constructor() {
    super("PayFast refuses a tokenization checkout without a passphrase: set PAYFAST_PASSPHRASE.");
  }
}

/** Cuts to at most `max` characters without splitting a character in two. */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max - 3).join("")}...`;
}

/**
 * A South African mobile number as PayFast takes it (10 digits, 06x/07x/08x), from what a
 * shopper typed ("082 123 4567", "+27 82 123 4567"); null when it is not one.
 */
export function payfastCellNumber(phone: string): string | null {
  const digits = phone.replace(/[\s().-]/g, "");
  const local = /^\+?27\d{9}$/.test(digits) ? `0${digits.replace(/^\+?27/, "")}` : digits;
  return /^0[6-8]\d{8}$/.test(local) ? local : null;
}

/** Splits "Thandi van der Merwe" into PayFast's name_first ("Thandi") and name_last ("van der Merwe"). */
export function splitName(fullName: string): { first: string; last: string } {
  const [first = "", ...rest] = fullName.trim().split(/\s+/);
  return { first, last: rest.join(" ") };
}

/**
 * The hidden fields of the checkout form the browser posts to PayFast, in PayFast's documented
 * order, blank ones left out, `signature` last. With `tokenize`, throws without a passphrase
 * (PayFast requires one for recurring billing).
 */
export function buildCheckoutForm(order: CheckoutOrder, config: Config): Record<string, string> {
  if (order.tokenize && !config.payfast.passphrase?.trim()) throw new TokenizationNeedsPassphraseError();
  const { first, last } = splitName(order.deliveryName);
  const email = order.customerEmail.trim();
  const description = order.items.map((item) => `${item.quantity} x ${item.name} (${item.size})`).join(", ");
  const values: Partial<Record<(typeof CHECKOUT_FIELD_ORDER)[number], string>> = {
    merchant_id: config.payfast.merchantId,
    merchant_key: config.payfast.merchantKey,
    return_url: `${config.publicUrl}/success?orderId=${order.id}`,
    cancel_url: `${config.publicUrl}/cancel?orderId=${order.id}`,
    notify_url: payfastNotifyUrl(config),
    name_first: clip(first, 100),
    name_last: clip(last, 100),
    email_address: email.length <= 100 ? email : "",
    cell_number: payfastCellNumber(order.deliveryPhone) ?? "",
    m_payment_id: order.id,
    amount: centsToDecimal(order.totalCents),
    item_name: clip(`${config.shop.name} order ${orderNumber(order.id)}`, 100),
    item_description: clip(description, 255),
    // Tokenization: no frequency or cycles (the shop decides when to charge), and a card only.
    ...(order.tokenize ? { payment_method: "cc", subscription_type: "2" } : {}),
  };
  const form: Record<string, string> = {};
  for (const key of CHECKOUT_FIELD_ORDER) {
    const value = values[key]?.trim();
    if (value) form[key] = value;
  }
  form.signature = checkoutSignature(form, config.payfast.passphrase);
  return form;
}
