/**
 * What the shop may say about VAT (docs/decisions/037-vat-wording-by-registration.md). Only a
 * VAT-registered shop (SHOP_VAT_NUMBER set) charges VAT, so only it may say that prices include VAT
 * or that goods are zero-rated; a shop that is not registered saying so makes a false representation
 * (CPA s41). Every page, e-mail, policy and document takes its words from here.
 */
export interface VatWording {
  /** After the shop's name in the footer, and under the storefront's heading. */
  pricesLine: string;
  /** Beside a total: the checkout's summary, the order e-mail, the about dialog. */
  pricesNote: string;
  /** The full price as ECTA s43(1)(i) asks: /legal item (i) and the terms (`{{vatOnPrices}}`). */
  fullPrice: string;
  /** The admin product form's price field: what the owner types is what the shopper pays. */
  priceLabel: string;
}

// One function per phrase, so a page takes only the words it shows (the storefront's first load
// holds the prices line alone).

/** After the shop's name in the footer, and under the storefront's heading. */
export const pricesLine = (registered: boolean): string =>
  registered ? "Prices in rand, VAT included." : "Prices in rand.";

/** Beside a total: the checkout's summary, the order e-mail, the about dialog. */
export const pricesNote = (registered: boolean): string =>
  registered
    ? "Prices include VAT; sanitary pads and pantyliners are zero-rated."
    : "We are not registered for VAT, so no VAT is charged.";

/** The full price as ECTA s43(1)(i) asks: /legal item (i) and the terms. */
export const fullPrice = (registered: boolean): string =>
  registered
    ? "Prices are in South African rand and include VAT where VAT applies: sanitary pads and pantyliners are zero-rated, everything else (delivery included) carries VAT at the standard rate."
    : "Prices are in South African rand. We are not registered for VAT, so no VAT is charged on the goods or on delivery.";

/** The admin product form's price field. */
export const priceLabel = (registered: boolean): string => (registered ? "Price (R, VAT included)" : "Price (R)");

/** The words for a shop that is (true) or is not VAT-registered. */
export function vatWording(registered: boolean): VatWording {
  return {
    pricesLine: pricesLine(registered),
    pricesNote: pricesNote(registered),
    fullPrice: fullPrice(registered),
    priceLabel: priceLabel(registered),
  };
}
