import { signItnFields } from "#server/payfast/signature.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";

/**
 * A COMPLETE ITN for an order as PayFast posts it: every field in PayFast's order, empty ones
 * included, signed with the merchant's passphrase (the sandbox's unless `payfast` says otherwise);
 * `extra` fields (a tokenization `token`) come after merchant_id.
 */
export function completeItn(
  orderId: string,
  amount: string,
  pfPaymentId: string,
  email: string,
  payfast: { merchantId: string; passphrase?: string | undefined } = PAYFAST_SANDBOX,
  /** Fields PayFast adds after merchant_id, in its order: `token` for a tokenized card, `payment_status` to override. */
  extra: Record<string, string> = {},
): string {
  const fields: [string, string][] = [
    ["m_payment_id", orderId],
    ["pf_payment_id", pfPaymentId],
    ["payment_status", "COMPLETE"],
    ["item_name", `Snug & Dry order ${orderId.slice(-8)}`],
    ["item_description", ""],
    ["amount_gross", amount],
    ["amount_fee", "-2.30"],
    ["amount_net", amount],
    ["custom_str1", ""],
    ["custom_str2", ""],
    ["custom_str3", ""],
    ["custom_str4", ""],
    ["custom_str5", ""],
    ["custom_int1", ""],
    ["custom_int2", ""],
    ["custom_int3", ""],
    ["custom_int4", ""],
    ["custom_int5", ""],
    ["name_first", "Thandi"],
    ["name_last", "Mokoena"],
    ["email_address", email],
    ["merchant_id", payfast.merchantId],
  ];
  const { payment_status: status, ...after } = extra;
  if (status) fields[2] = ["payment_status", status];
  fields.push(...Object.entries(after));
  return signItnFields(fields, payfast.passphrase);
}
