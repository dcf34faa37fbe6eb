import type { Cents } from "./money.js";

/**
 * VAT per line (docs/decisions/017-vat-per-line.md). Prices include VAT; each line carries the VAT
 * class and rate it was sold at, and the VAT in it is worked out per line, rounded half up to the
 * cent. Rates are in basis points: 1500 is 15%, 0 is 0%.
 */

export const VAT_CLASSES = ["standard", "zero"] as const;
export type VatClass = (typeof VAT_CLASSES)[number];

/**
 * How an order's VAT is rounded: "line" per line (every order placed since VAT per line), "order"
 * once on the whole amount at its one rate (orders placed before, whose documents said so).
 */
export const VAT_ROUNDINGS = ["line", "order"] as const;
export type VatRounding = (typeof VAT_ROUNDINGS)[number];

export const VAT_CLASS_LABELS: Record<VatClass, string> = {
  standard: "Standard-rated",
  zero: "Zero-rated",
};

/** What the admin's product form says under the VAT class (LEGAL.md, VAT). */
export const VAT_CLASS_HINT =
  "Zero-rated: sanitary pads, pantyliners and maternity pads only. Tampons, menstrual cups, wipes, period underwear, incontinence pads and nappies are standard-rated.";

/** "15%", "0%", "15.5%". */
export function formatVatRate(rateBp: number): string {
  const whole = Math.floor(rateBp / 100);
  const fraction = String(rateBp % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}

/**
 * The VAT included in a VAT-inclusive amount at a rate: amount x rate / (100% + rate), rounded
 * half up to the cent, in whole numbers (no floating-point rounding at the half cent).
 */
export function includedVatCents(amountCents: Cents, rateBp: number): Cents {
  if (!Number.isInteger(amountCents) || amountCents < 0) throw new RangeError(`bad amount ${amountCents}`);
  const numerator = BigInt(amountCents) * BigInt(rateBp);
  const denominator = BigInt(10_000 + rateBp);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** A VAT-inclusive amount sold at one class and rate: an order line, the delivery fee, or a credited part. */
export interface VatLine {
  amountCents: Cents;
  vatClass: VatClass;
  rateBp: number;
}

export interface VatedLine extends VatLine {
  vatCents: Cents;
}

/** The figures of one rate on a document: value excluding VAT + VAT = total, exactly. */
export interface VatRateTotal {
  vatClass: VatClass;
  rateBp: number;
  exclCents: Cents;
  vatCents: Cents;
  totalCents: Cents;
}

/** Each line with its VAT, rounded per line. */
export function vatLines(lines: readonly VatLine[]): VatedLine[] {
  return lines.map((line) => ({ ...line, vatCents: includedVatCents(line.amountCents, line.rateBp) }));
}

/** Sums lines whose VAT is known per rate: the highest rate first; the sums are the lines' sums. */
export function totalsByRate(lines: readonly VatedLine[]): VatRateTotal[] {
  const byKey = new Map<string, VatRateTotal>();
  for (const line of lines) {
    const key = `${line.vatClass}:${line.rateBp}`;
    const total = byKey.get(key) ?? {
      vatClass: line.vatClass,
      rateBp: line.rateBp,
      exclCents: 0,
      vatCents: 0,
      totalCents: 0,
    };
    total.vatCents += line.vatCents;
    total.totalCents += line.amountCents;
    total.exclCents = total.totalCents - total.vatCents;
    byKey.set(key, total);
  }
  return [...byKey.values()].sort((a, b) => b.rateBp - a.rateBp || a.vatClass.localeCompare(b.vatClass));
}

/** Adds per-rate figures of several documents (the VAT report), rate by rate. */
export function addByRate(...groups: readonly (readonly VatRateTotal[])[]): VatRateTotal[] {
  return totalsByRate(
    groups.flat().map((group) => ({
      vatClass: group.vatClass,
      rateBp: group.rateBp,
      amountCents: group.totalCents,
      vatCents: group.vatCents,
    })),
  );
}

/** An order as its VAT is worked out: each line's class and rate as stored when it was placed. */
export interface OrderForVat {
  lines: readonly {
    unitPriceCents: Cents;
    quantity: number;
    vatClass: VatClass;
    vatRateBp: number;
    /** A promo code's share of this line (src/domain/promo.ts): the line was sold for its amount less this. */
    discountCents?: Cents | undefined;
    /** Its share of a multi-buy saving (src/domain/multibuy.ts), off its amount as a promo's is. */
    multibuyDiscountCents?: Cents | undefined;
  }[];
  deliveryFeeCents: Cents;
  /** The delivery fee is standard-rated; its rate is stored on the order when it is placed. */
  deliveryVatRateBp: number;
  /** "line" unless said. */
  vatRounding?: VatRounding | undefined;
}

/** What came off a line's amount: its share of a promo code's discount and of a multi-buy saving. */
export const lineOffCents = (line: {
  discountCents?: Cents | undefined;
  multibuyDiscountCents?: Cents | undefined;
}): Cents => (line.discountCents ?? 0) + (line.multibuyDiscountCents ?? 0);

/**
 * The order's lines as the invoice rates them: each product line at what was paid for it (its amount
 * less its shares of a promo discount and a multi-buy saving), then the delivery fee when there is one.
 */
export function invoiceVatLines(order: OrderForVat): VatLine[] {
  const lines: VatLine[] = order.lines.map((line) => ({
    amountCents: line.unitPriceCents * line.quantity - lineOffCents(line),
    vatClass: line.vatClass,
    rateBp: line.vatRateBp,
  }));
  if (order.deliveryFeeCents > 0) {
    lines.push({ amountCents: order.deliveryFeeCents, vatClass: "standard", rateBp: order.deliveryVatRateBp });
  }
  return lines;
}

export interface DocumentVat {
  /** Per line of the document, in the order given. */
  lines: VatedLine[];
  byRate: VatRateTotal[];
  vatCents: Cents;
  totalCents: Cents;
}

function documentVat(lines: VatedLine[]): DocumentVat {
  return {
    lines,
    // A rate with nothing on this document (a tiny credit note) is left out of its summary.
    byRate: totalsByRate(lines.filter((line) => line.amountCents !== 0)),
    vatCents: lines.reduce((sum, line) => sum + line.vatCents, 0),
    totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0),
  };
}

/**
 * An order placed before VAT per line: its lines were all standard-rated at one rate, and its
 * documents rounded the VAT once, on the whole amount. As one line, they read as they were issued.
 */
function asOneLine(lines: readonly VatLine[]): VatLine[] {
  const [first] = lines;
  if (!first) return [];
  if (lines.some((line) => line.vatClass !== first.vatClass || line.rateBp !== first.rateBp)) {
    throw new Error("an order rounded on its total must have one rate");
  }
  return [{ ...first, amountCents: lines.reduce((sum, line) => sum + line.amountCents, 0) }];
}

/** The VAT of an invoice: per line (for an order rounded on its total, one line), per rate and in all. */
export function invoiceVat(order: OrderForVat): DocumentVat {
  const lines = invoiceVatLines(order);
  return documentVat(vatLines(order.vatRounding === "order" ? asOneLine(lines) : lines));
}

/**
 * Splits `amountCents` over `weights` in proportion, in whole cents that add up exactly (largest
 * remainder: each part is rounded down, and the cents left go to the largest fractions, the earlier
 * line first on a tie). No part exceeds its weight when the amount does not exceed their sum.
 */
export function apportion(amountCents: Cents, weights: readonly Cents[]): Cents[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (amountCents === 0) return weights.map(() => 0);
  if (total <= 0) throw new RangeError("nothing to apportion over");
  const amount = BigInt(amountCents);
  const whole = BigInt(total);
  const parts = weights.map((weight, index) => {
    const share = amount * BigInt(weight);
    return { index, cents: Number(share / whole), remainder: share % whole };
  });
  let left = amountCents - parts.reduce((sum, part) => sum + part.cents, 0);
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const part of byRemainder) {
    if (left === 0) break;
    part.cents += 1;
    left -= 1;
  }
  return parts.map((part) => part.cents);
}

/**
 * What a credit note credits of each invoice line: either an amount, apportioned over what is still
 * uncredited of every line (refunds recorded before credit notes had lines, and refunds the admin
 * spread in proportion without recording the split), or its parts, one per invoice line in the
 * invoice's order (a refund that records its lines, src/domain/refund-lines.ts; the delivery fee's
 * part last when the invoice has one).
 */
export type CreditNoteCredit = Cents | { readonly partsCents: readonly Cents[] };

/**
 * Each credit note's part of each invoice line, in the order they were issued. An amount is
 * apportioned over the lines' uncredited amounts (largest remainder); parts are taken as given.
 * Throws when a credit note is empty or credits more than a line has left.
 */
export function allocateCredits(invoiceLines: readonly VatLine[], credits: readonly CreditNoteCredit[]): Cents[][] {
  const credited = invoiceLines.map(() => 0);
  return credits.map((credit) => {
    const uncredited = invoiceLines.map((line, index) => line.amountCents - (credited[index] ?? 0));
    const left = uncredited.reduce((sum, cents) => sum + cents, 0);
    let parts: Cents[];
    if (typeof credit === "number") {
      if (!Number.isInteger(credit) || credit <= 0 || credit > left) {
        throw new RangeError(`a credit note of ${credit} cents on an invoice with ${left} cents uncredited`);
      }
      parts = apportion(credit, uncredited);
    } else {
      parts = invoiceLines.map((_, index) => credit.partsCents[index] ?? 0);
      const bad = parts.findIndex(
        (part, index) => !Number.isInteger(part) || part < 0 || part > (uncredited[index] ?? 0),
      );
      if (credit.partsCents.length !== invoiceLines.length || bad >= 0) {
        throw new RangeError(`a credit note's parts ${credit.partsCents.join(",")} do not fit what is left uncredited`);
      }
      if (parts.every((part) => part === 0)) throw new RangeError("a credit note of nothing");
    }
    parts.forEach((part, index) => {
      credited[index] = (credited[index] ?? 0) + part;
    });
    return parts;
  });
}

/** How much of each invoice line the credit notes have credited, in all. */
export function creditedPerLine(invoiceLines: readonly VatLine[], credits: readonly CreditNoteCredit[]): Cents[] {
  const total = invoiceLines.map(() => 0);
  for (const parts of allocateCredits(invoiceLines, credits)) {
    parts.forEach((part, index) => {
      total[index] = (total[index] ?? 0) + part;
    });
  }
  return total;
}

/**
 * The VAT of an invoice's credit notes, in the order they were issued (docs/decisions/017 and 036).
 * Each credit note reverses at the invoice's rates, line by line: what it credits of each line
 * (its recorded parts, or its amount apportioned over what is still uncredited: allocateCredits),
 * and on each line the line's VAT on everything credited so far less the VAT already reversed.
 * So a credit note for the pads of a mixed order reverses 0%, one for the nappies exactly their
 * VAT; credit notes never reverse more than a line held, and credit notes for the whole invoice
 * reverse exactly the invoice's VAT, rate by rate. An order rounded on its total ("order") keeps
 * its own rule: each credit note's VAT is its amount's, rounded once.
 */
export function creditNoteVats(
  invoiceLines: readonly VatLine[],
  credits: readonly CreditNoteCredit[],
  vatRounding: VatRounding = "line",
): DocumentVat[] {
  if (vatRounding === "order") {
    // As such an order's credit notes always were: the VAT of each amount, at its one rate, rounded once.
    const [line] = asOneLine(invoiceLines);
    if (!line) throw new RangeError("a credit note on an empty invoice");
    return credits.map((credit) => {
      const amountCents = typeof credit === "number" ? credit : credit.partsCents.reduce((sum, part) => sum + part, 0);
      return documentVat(vatLines([{ ...line, amountCents }]));
    });
  }
  const credited = invoiceLines.map(() => 0);
  return allocateCredits(invoiceLines, credits).map((parts) => {
    const lines = invoiceLines.map((line, index) => {
      const before = credited[index] ?? 0;
      const after = before + (parts[index] ?? 0);
      credited[index] = after;
      return {
        amountCents: after - before,
        vatClass: line.vatClass,
        rateBp: line.rateBp,
        vatCents: includedVatCents(after, line.rateBp) - includedVatCents(before, line.rateBp),
      };
    });
    return documentVat(lines);
  });
}
