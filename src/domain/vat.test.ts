import { describe, expect, it } from "vitest";
import {
  addByRate,
  apportion,
  creditNoteVats,
  formatVatRate,
  includedVatCents,
  invoiceVat,
  type OrderForVat,
  type VatLine,
} from "./vat.js";

const STANDARD = 1500;

describe("includedVatCents", () => {
  it.each([
    // amount, rate, VAT: amount x rate / (10000 + rate), half a cent and more rounds up
    [11_500, STANDARD, 1_500],
    [7_500, STANDARD, 978], // 978.26
    [24_999, STANDARD, 3_261], // 3260.74
    [4_499, STANDARD, 587], // 586.83
    [23, STANDARD, 3], // 3.0
    [4, STANDARD, 1], // 0.5217
    [3, STANDARD, 0], // 0.3913
    [0, STANDARD, 0],
    [4_499, 0, 0],
    [999_999_999, STANDARD, 130_434_782], // 130434782.48
    [201, 1550, 27], // 26.97 at 15.5%
  ])("finds %i cents at %i bp hold %i cents of VAT", (amount, rate, vat) => {
    expect(includedVatCents(amount, rate)).toBe(vat);
  });

  it("rounds an exact half cent up, where a float would not be sure to", () => {
    // At 15% no whole number of cents holds an exact half cent of VAT; at 20% (a sixth) 3 cents hold 0.5.
    expect(includedVatCents(3, 2000)).toBe(1);
    expect(includedVatCents(9, 2000)).toBe(2);
    expect(includedVatCents(15, 2000)).toBe(3);
  });

  it("refuses a fraction of a cent or a negative amount", () => {
    expect(() => includedVatCents(1.5, STANDARD)).toThrow(RangeError);
    expect(() => includedVatCents(-1, STANDARD)).toThrow(RangeError);
  });
});

describe("formatVatRate", () => {
  it.each([
    [1500, "15%"],
    [0, "0%"],
    [1550, "15.5%"],
    [1525, "15.25%"],
    [1405, "14.05%"],
  ])("writes %i bp as %s", (rate, text) => {
    expect(formatVatRate(rate)).toBe(text);
  });
});

const mixed: OrderForVat = {
  lines: [
    { unitPriceCents: 24_999, quantity: 1, vatClass: "standard", vatRateBp: STANDARD }, // nappies
    { unitPriceCents: 4_499, quantity: 3, vatClass: "zero", vatRateBp: 0 }, // pads
    { unitPriceCents: 5_999, quantity: 2, vatClass: "standard", vatRateBp: STANDARD }, // tampons
    { unitPriceCents: 3_499, quantity: 1, vatClass: "zero", vatRateBp: 0 }, // liners
  ],
  deliveryFeeCents: 7_500,
  deliveryVatRateBp: STANDARD,
};

describe("invoiceVat", () => {
  it("works out VAT per line and sums it per rate, the delivery fee standard-rated", () => {
    const vat = invoiceVat(mixed);
    expect(vat.lines.map((line) => line.vatCents)).toEqual([3_261, 0, 1_565, 0, 978]);
    expect(vat.byRate).toEqual([
      {
        vatClass: "standard",
        rateBp: STANDARD,
        totalCents: 24_999 + 11_998 + 7_500,
        vatCents: 5_804,
        exclCents: 38_693,
      },
      { vatClass: "zero", rateBp: 0, totalCents: 13_497 + 3_499, vatCents: 0, exclCents: 16_996 },
    ]);
    expect(vat.vatCents).toBe(5_804);
    expect(vat.totalCents).toBe(24_999 + 13_497 + 11_998 + 3_499 + 7_500);
  });

  it("rounds each line, not the total: two lines of 4 cents hold 2 cents, their 8 cents 1", () => {
    const vat = invoiceVat({
      lines: [
        { unitPriceCents: 4, quantity: 1, vatClass: "standard", vatRateBp: STANDARD },
        { unitPriceCents: 4, quantity: 1, vatClass: "standard", vatRateBp: STANDARD },
      ],
      deliveryFeeCents: 0,
      deliveryVatRateBp: STANDARD,
    });
    expect(vat.vatCents).toBe(2);
    expect(includedVatCents(8, STANDARD)).toBe(1);
  });

  it("has no VAT and no delivery line for a free-delivery order of pads", () => {
    const vat = invoiceVat({
      lines: [{ unitPriceCents: 8_999, quantity: 6, vatClass: "zero", vatRateBp: 0 }],
      deliveryFeeCents: 0,
      deliveryVatRateBp: STANDARD,
    });
    expect(vat.byRate).toEqual([{ vatClass: "zero", rateBp: 0, totalCents: 53_994, vatCents: 0, exclCents: 53_994 }]);
    expect(vat.lines).toHaveLength(1);
  });

  it("gives a pads-only order below free delivery VAT on its delivery fee only", () => {
    const vat = invoiceVat({
      lines: [{ unitPriceCents: 4_499, quantity: 1, vatClass: "zero", vatRateBp: 0 }],
      deliveryFeeCents: 7_500,
      deliveryVatRateBp: STANDARD,
    });
    expect(vat.vatCents).toBe(978);
    expect(vat.byRate.map((rate) => [rate.rateBp, rate.vatCents])).toEqual([
      [STANDARD, 978],
      [0, 0],
    ]);
  });
});

describe("apportion", () => {
  it.each([
    { amount: 100, weights: [1, 1, 1], parts: [34, 33, 33] },
    { amount: 2, weights: [1, 1, 1], parts: [1, 1, 0] },
    { amount: 10, weights: [3, 0, 7], parts: [3, 0, 7] },
    { amount: 0, weights: [3, 5], parts: [0, 0] },
    { amount: 5, weights: [5], parts: [5] },
    { amount: 1_000, weights: [24_999, 13_497, 7_500], parts: [544, 293, 163] },
  ])("splits $amount over $weights as $parts", ({ amount, weights, parts }) => {
    const split = apportion(amount, weights);
    expect(split).toEqual(parts);
    expect(split.reduce((sum, part) => sum + part, 0)).toBe(amount);
  });

  it("never gives a part more than its weight", () => {
    const weights = [7, 1, 29, 23];
    for (let amount = 0; amount <= 60; amount++) {
      const split = apportion(amount, weights);
      expect(split.every((part, index) => part <= (weights[index] ?? 0))).toBe(true);
    }
  });
});

describe("creditNoteVats", () => {
  const invoiceLines: VatLine[] = [
    { amountCents: 24_999, vatClass: "standard", rateBp: STANDARD },
    { amountCents: 13_497, vatClass: "zero", rateBp: 0 },
    { amountCents: 7_500, vatClass: "standard", rateBp: STANDARD },
  ];
  const invoice = invoiceVat({
    lines: [
      { unitPriceCents: 24_999, quantity: 1, vatClass: "standard", vatRateBp: STANDARD },
      { unitPriceCents: 4_499, quantity: 3, vatClass: "zero", vatRateBp: 0 },
    ],
    deliveryFeeCents: 7_500,
    deliveryVatRateBp: STANDARD,
  });

  it("reverses a partial credit across both rates in proportion to the invoice's lines", () => {
    const [note] = creditNoteVats(invoiceLines, [10_000]);
    // 10000 of 45996: 5435.04, 2934.38, 1630.58 -> 5435, 2934, 1631 (largest remainder)
    expect(note?.lines.map((line) => line.amountCents)).toEqual([5_435, 2_934, 1_631]);
    expect(note?.lines.map((line) => line.vatCents)).toEqual([709, 0, 213]);
    expect(note?.byRate).toEqual([
      { vatClass: "standard", rateBp: STANDARD, totalCents: 7_066, vatCents: 922, exclCents: 6_144 },
      { vatClass: "zero", rateBp: 0, totalCents: 2_934, vatCents: 0, exclCents: 2_934 },
    ]);
    expect(note?.totalCents).toBe(10_000);
  });

  it("reverses exactly the invoice's VAT, rate by rate, once the credit notes reach its total", () => {
    const notes = creditNoteVats(invoiceLines, [1, 10_000, 333, 45_996 - 10_334]);
    expect(addByRate(...notes.map((note) => note.byRate))).toEqual(invoice.byRate);
    for (const note of notes) {
      for (const line of note.lines) expect(line.vatCents).toBeGreaterThanOrEqual(0);
      expect(note.byRate.reduce((sum, rate) => sum + rate.totalCents, 0)).toBe(note.totalCents);
    }
  });

  it("reverses at the invoice's rates, whatever the rate is today", () => {
    const [note] = creditNoteVats([{ amountCents: 11_500, vatClass: "standard", rateBp: 1400 }], [11_500]);
    expect(note?.byRate).toEqual([
      { vatClass: "standard", rateBp: 1400, totalCents: 11_500, vatCents: 1_412, exclCents: 10_088 },
    ]);
  });

  it("refuses to credit more than is left uncredited", () => {
    expect(() => creditNoteVats(invoiceLines, [45_996, 1])).toThrow(RangeError);
    expect(() => creditNoteVats(invoiceLines, [0])).toThrow(RangeError);
  });
});

describe("an order placed before VAT per line (rounded on its total)", () => {
  // Three lines of R0.04 and no delivery: per line 1 cent each (3), on the total 12 cents hold 2.
  const legacy: OrderForVat = {
    lines: [{ unitPriceCents: 4, quantity: 1, vatClass: "standard", vatRateBp: STANDARD }],
    deliveryFeeCents: 0,
    deliveryVatRateBp: STANDARD,
  };
  const three = { ...legacy, lines: [0, 1, 2].map(() => legacy.lines[0] as OrderForVat["lines"][number]) };

  it("keeps its invoice's VAT: 15/115 of the whole amount, rounded once", () => {
    expect(invoiceVat(three).vatCents).toBe(3);
    expect(invoiceVat({ ...three, vatRounding: "order" }).vatCents).toBe(2);
    expect(invoiceVat({ ...three, vatRounding: "order" }).byRate).toEqual([
      { vatClass: "standard", rateBp: STANDARD, totalCents: 12, vatCents: 2, exclCents: 10 },
    ]);
  });

  it("keeps its credit notes' VAT: each amount's, rounded once", () => {
    const lines = [0, 1, 2].map(() => ({ amountCents: 4, vatClass: "standard" as const, rateBp: STANDARD }));
    const notes = creditNoteVats(lines, [4, 4, 4], "order");
    expect(notes.map((note) => note.vatCents)).toEqual([1, 1, 1]);
  });

  it("refuses lines at different rates, which such an order never had", () => {
    expect(() => invoiceVat({ ...mixed, vatRounding: "order" })).toThrow(/one rate/);
  });
});
