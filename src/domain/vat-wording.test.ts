import { describe, expect, it } from "vitest";
import { type VatWording, vatWording } from "./vat-wording.js";

const FIELDS: (keyof VatWording)[] = ["pricesLine", "pricesNote", "fullPrice", "priceLabel"];

describe("vatWording (CPA s41)", () => {
  it.each(FIELDS)(
    "a shop that is not VAT-registered: its %s says no VAT is included and nothing is zero-rated",
    (field) => {
      const words = vatWording(false)[field];
      expect(words).not.toMatch(/VAT included|include VAT|includes VAT|VAT inclusive/i);
      expect(words).not.toMatch(/zero-rated|standard rate/i);
    },
  );

  it.each<[keyof VatWording, RegExp]>([
    ["pricesLine", /^Prices in rand, VAT included\.$/],
    ["pricesNote", /include VAT; sanitary pads and pantyliners are zero-rated/],
    ["fullPrice", /include VAT where VAT applies: sanitary pads and pantyliners are zero-rated/],
    ["priceLabel", /^Price \(R, VAT included\)$/],
  ])("a VAT-registered shop: its %s says prices include VAT", (field, words) => {
    expect(vatWording(true)[field]).toMatch(words);
  });

  it.each<[keyof VatWording, string]>([
    ["pricesLine", "Prices in rand."],
    ["pricesNote", "We are not registered for VAT, so no VAT is charged."],
    [
      "fullPrice",
      "Prices are in South African rand. We are not registered for VAT, so no VAT is charged on the goods or on delivery.",
    ],
    ["priceLabel", "Price (R)"],
  ])("a shop that is not VAT-registered: its %s reads %j", (field, words) => {
    expect(vatWording(false)[field]).toBe(words);
  });
});
