import { describe, expect, it } from "vitest";
import { recurringProblem } from "./emulator-tokens.js";

/** What the emulated PayFast says of a checkout form's recurring billing fields (docs/payfast.md §10). */
describe("the emulator's recurring billing checks", () => {
  const passphrase = "jt7NOE43FZPn";
  const tokenization = { subscription_type: "2", payment_method: "cc" };
  const subscription = { subscription_type: "1", frequency: "3", cycles: "0" };

  it.each([
    ["a plain payment", {}, null],
    ["tokenization, card only", tokenization, null],
    ["tokenization without a payment method", { subscription_type: "2" }, null],
    ["a monthly subscription until cancelled", subscription, null],
    [
      "a subscription with a billing date and amount",
      { ...subscription, billing_date: "2026-07-01", recurring_amount: "5.00" },
      null,
    ],
  ])("takes %s", (_name, fields, problem) => {
    expect(recurringProblem(fields, passphrase)).toBe(problem);
  });

  it.each([
    ["recurring fields without a type", { frequency: "3" }, /needs subscription_type/],
    ["a type PayFast does not have", { subscription_type: "0" }, /must be 1 \(subscription\) or 2/],
    ["tokenization by EFT", { ...tokenization, payment_method: "eft" }, /credit card only/],
    ["tokenization with a schedule", { ...tokenization, frequency: "2", cycles: "0" }, /no frequency, cycles/],
    ["every three weeks (no such frequency)", { ...subscription, frequency: "7" }, /frequency must be/],
    ["a subscription without cycles", { subscription_type: "1", frequency: "3" }, /cycles must be/],
    ["a recurring amount under R5.00", { ...subscription, recurring_amount: "4.99" }, /at least R5.00/],
    [
      "a billing date that is not a date",
      { ...subscription, billing_date: "01/07/2026" },
      /billing_date must be a date/,
    ],
  ])("refuses %s", (_name, fields, problem) => {
    expect(recurringProblem(fields, passphrase)).toMatch(problem);
  });

  it.each([undefined, "", "  "])("refuses any recurring billing without a passphrase (%j)", (missing) => {
    expect(recurringProblem(tokenization, missing)).toMatch(/passphrase is required/);
    expect(recurringProblem(subscription, missing)).toMatch(/passphrase is required/);
    expect(recurringProblem({}, missing)).toBeNull();
  });
});
