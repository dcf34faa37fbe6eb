import { describe, expect, it } from "vitest";
import {
  type CreditableOrder,
  fitRefundToUnits,
  type RefundChoice,
  splitRefund,
  spreadRefund,
  unitsValueCents,
} from "./refund-lines.js";
import { addByRate, type CreditNoteCredit, creditedPerLine, creditNoteVats, invoiceVat, type VatLine } from "./vat.js";

const STANDARD = 1500;
const PADS = 1;
const NAPPIES = 2;

/** A mixed order: 3 packs of pads at R44.99 (0%), a box of nappies at R249.99 (15%), delivery R75 (15%). */
const mixed: CreditableOrder = {
  lines: [
    { orderItemId: PADS, label: "Pads (M)", quantity: 3, paidCents: 13_497, creditedCents: 0, creditedUnits: 0 },
    { orderItemId: NAPPIES, label: "Nappies (4)", quantity: 1, paidCents: 24_999, creditedCents: 0, creditedUnits: 0 },
  ],
  deliveryFeeCents: 7_500,
  deliveryCreditedCents: 0,
};
const invoiceLines: VatLine[] = [
  { amountCents: 13_497, vatClass: "zero", rateBp: 0 },
  { amountCents: 24_999, vatClass: "standard", rateBp: STANDARD },
  { amountCents: 7_500, vatClass: "standard", rateBp: STANDARD },
];
const invoice = invoiceVat({
  lines: [
    { unitPriceCents: 4_499, quantity: 3, vatClass: "zero", vatRateBp: 0 },
    { unitPriceCents: 24_999, quantity: 1, vatClass: "standard", vatRateBp: STANDARD },
  ],
  deliveryFeeCents: 7_500,
  deliveryVatRateBp: STANDARD,
});

/** The credit note's parts per invoice line (pads, nappies, delivery) of a split. */
function partsOf(choice: RefundChoice, order = mixed): CreditNoteCredit {
  const result = splitRefund(order, choice);
  if (!result.ok) throw new Error(result.message);
  const part = (id: number) => result.split.lines.find((line) => line.orderItemId === id)?.amountCents ?? 0;
  return { partsCents: [part(PADS), part(NAPPIES), result.split.deliveryCents] };
}

/** The order as it stands after credit notes with these parts. */
function creditedAfter(
  credits: readonly { partsCents: readonly number[]; units: readonly number[] }[],
): CreditableOrder {
  const credited = creditedPerLine(invoiceLines, credits);
  return {
    lines: mixed.lines.map((line, index) => ({
      ...line,
      creditedCents: credited[index] ?? 0,
      creditedUnits: credits.reduce((sum, credit) => sum + (credit.units[index] ?? 0), 0),
    })),
    deliveryFeeCents: 7_500,
    deliveryCreditedCents: credited[2] ?? 0,
  };
}

describe("unitsValueCents", () => {
  const line = mixed.lines[0] as CreditableOrder["lines"][number];
  it.each([
    // line paid, units bought, credited units, asked, value: the units' share, the last ones what is left
    [13_497, 3, 0, 1, 4_499],
    [13_497, 3, 0, 3, 13_497],
    [10_000, 3, 0, 1, 3_333], // 3333.33
    [10_000, 3, 1, 1, 3_334], // 6666.67 - 3333
    [10_000, 3, 2, 1, 3_333], // the last unit: what is left
    [1, 2, 0, 1, 1], // half a cent rounds up
    [1, 2, 1, 1, 0],
  ])(
    "of a line paid %i for %i units, %i credited, %i more are worth %i",
    (paid, quantity, creditedUnits, asked, value) => {
      const creditedCents =
        creditedUnits === 0 ? 0 : Math.floor((2 * paid * creditedUnits + quantity) / (2 * quantity));
      expect(unitsValueCents({ ...line, paidCents: paid, quantity, creditedUnits, creditedCents }, asked)).toBe(value);
    },
  );

  it("gives the last units what is left after an amount spread without units", () => {
    expect(unitsValueCents({ ...line, creditedCents: 500 }, 3)).toBe(12_997);
    expect(unitsValueCents({ ...line, creditedCents: 13_000 }, 1)).toBe(497);
  });
});

describe("credit notes of the lines that came back", () => {
  it.each<[string, RefundChoice, { zero: number; standard: number; vat: number; total: number }]>([
    [
      "one pack of pads: 0% only",
      { lines: [{ orderItemId: PADS, quantity: 1 }] },
      { zero: 4_499, standard: 0, vat: 0, total: 4_499 },
    ],
    [
      "the nappies: exactly their VAT",
      { lines: [{ orderItemId: NAPPIES, quantity: 1 }] },
      { zero: 0, standard: 24_999, vat: 3_261, total: 24_999 },
    ],
    ["the delivery fee alone, at 15%", { deliveryCents: 7_500 }, { zero: 0, standard: 7_500, vat: 978, total: 7_500 }],
    [
      "nappies and delivery: each line's VAT, rounded per line",
      { lines: [{ orderItemId: NAPPIES, quantity: 1 }], deliveryCents: 7_500 },
      { zero: 0, standard: 32_499, vat: 3_261 + 978, total: 32_499 },
    ],
    [
      "part of the nappies' price (R100 of it)",
      { lines: [{ orderItemId: NAPPIES, quantity: 1, amountCents: 10_000 }] },
      { zero: 0, standard: 10_000, vat: 1_304, total: 10_000 },
    ],
    [
      "two packs of pads and the nappies",
      {
        lines: [
          { orderItemId: PADS, quantity: 2 },
          { orderItemId: NAPPIES, quantity: 1 },
        ],
      },
      { zero: 8_998, standard: 24_999, vat: 3_261, total: 33_997 },
    ],
  ])("%s", (_, choice, expected) => {
    const [note] = creditNoteVats(invoiceLines, [partsOf(choice)]);
    const rate = (vatClass: string) => note?.byRate.find((r) => r.vatClass === vatClass)?.totalCents ?? 0;
    expect(rate("zero")).toBe(expected.zero);
    expect(rate("standard")).toBe(expected.standard);
    expect(note?.vatCents).toBe(expected.vat);
    expect(note?.totalCents).toBe(expected.total);
    // A rate the credit note does not touch is not on it.
    expect(note?.byRate.map((r) => r.vatClass)).toEqual(
      [expected.standard > 0 && "standard", expected.zero > 0 && "zero"].filter(Boolean),
    );
  });

  it("rounds each credit note's VAT so that together they never pass the invoice's, rate by rate", () => {
    // Three credit notes of R33.33 of the nappies (433.3 cents of VAT each), then the rest of everything.
    const credits: { partsCents: number[]; units: number[] }[] = [];
    for (let index = 0; index < 3; index++) {
      const parts = partsOf(
        { lines: [{ orderItemId: NAPPIES, quantity: 1, amountCents: 3_333 }] },
        creditedAfter(credits.map((credit) => ({ ...credit, units: [0, 0, 0] }))),
      ) as { partsCents: number[] };
      credits.push({ partsCents: parts.partsCents, units: [0, 0, 0] });
    }
    const notes = creditNoteVats(invoiceLines, credits);
    expect(notes.map((note) => note.vatCents)).toEqual([435, 434, 435]);
    const rest = spreadRefund(creditedAfter(credits), 45_996 - 9_999);
    expect(rest.ok).toBe(true);
    const all = creditNoteVats(invoiceLines, [...credits, 45_996 - 9_999]);
    expect(addByRate(...all.map((note) => note.byRate))).toEqual(invoice.byRate);
    for (let count = 1; count <= all.length; count++) {
      const sofar = addByRate(...all.slice(0, count).map((note) => note.byRate));
      for (const rate of sofar) {
        const whole = invoice.byRate.find((r) => r.vatClass === rate.vatClass);
        expect(rate.vatCents).toBeLessThanOrEqual(whole?.vatCents ?? 0);
        expect(rate.totalCents).toBeLessThanOrEqual(whole?.totalCents ?? 0);
      }
    }
  });

  it("keeps an earlier credit note's VAT when later ones record their lines (refunds before lines: amounts)", () => {
    const [legacy] = creditNoteVats(invoiceLines, [10_000]);
    const [again, pads] = creditNoteVats(invoiceLines, [10_000, { partsCents: [1_000, 0, 0] }]);
    expect(again).toEqual(legacy);
    expect(pads?.vatCents).toBe(0);
  });

  it("refuses parts beyond what a line has left", () => {
    expect(() => creditNoteVats(invoiceLines, [{ partsCents: [13_498, 0, 0] }])).toThrow(RangeError);
    expect(() => creditNoteVats(invoiceLines, [24_999, { partsCents: [0, 24_999, 0] }])).toThrow(RangeError);
    expect(() => creditNoteVats(invoiceLines, [{ partsCents: [0, 0, 0] }])).toThrow(RangeError);
    expect(() => creditNoteVats(invoiceLines, [{ partsCents: [-1, 2, 0] }])).toThrow(RangeError);
  });
});

describe("splitRefund refuses what the order does not have", () => {
  const oneCredited = creditedAfter([{ partsCents: [4_499, 0, 0], units: [1, 0, 0] }]);
  it.each<[string, CreditableOrder, RefundChoice, string]>([
    ["a line of another order", mixed, { lines: [{ orderItemId: 99, quantity: 1 }] }, "REFUND_LINE_UNKNOWN"],
    ["more units than bought", mixed, { lines: [{ orderItemId: PADS, quantity: 4 }] }, "REFUND_LINE_TOO_LARGE"],
    ["units already credited", oneCredited, { lines: [{ orderItemId: PADS, quantity: 3 }] }, "REFUND_LINE_TOO_LARGE"],
    ["no units", mixed, { lines: [{ orderItemId: PADS, quantity: 0 }] }, "VALIDATION_FAILED"],
    [
      "a line twice",
      mixed,
      {
        lines: [
          { orderItemId: PADS, quantity: 1 },
          { orderItemId: PADS, quantity: 1 },
        ],
      },
      "VALIDATION_FAILED",
    ],
    [
      "more than the line",
      mixed,
      { lines: [{ orderItemId: NAPPIES, quantity: 1, amountCents: 25_000 }] },
      "REFUND_LINE_TOO_LARGE",
    ],
    [
      "a negative amount",
      mixed,
      { lines: [{ orderItemId: NAPPIES, quantity: 1, amountCents: -5 }] },
      "VALIDATION_FAILED",
    ],
    ["more than the delivery fee", mixed, { deliveryCents: 7_501 }, "REFUND_LINE_TOO_LARGE"],
    [
      "a negative delivery fee",
      mixed,
      { lines: [{ orderItemId: PADS, quantity: 1 }], deliveryCents: -1 },
      "VALIDATION_FAILED",
    ],
    [
      "an amount that is not the lines' sum",
      mixed,
      { amountCents: 5_000, lines: [{ orderItemId: PADS, quantity: 1 }] },
      "REFUND_LINES_MISMATCH",
    ],
    [
      "lines worth nothing",
      mixed,
      { lines: [{ orderItemId: PADS, quantity: 1, amountCents: 0 }] },
      "VALIDATION_FAILED",
    ],
    ["no lines and no amount", mixed, {}, "VALIDATION_FAILED"],
    ["a spread amount beyond what is left", oneCredited, { amountCents: 45_996 - 4_499 + 1 }, "REFUND_TOO_LARGE"],
  ])("%s", (_, order, choice, code) => {
    const result = splitRefund(order, choice);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.code).toBe(code);
  });
});

describe("a refund with no lines chosen", () => {
  it("is spread over what is left of every line, the delivery fee included, and says so", () => {
    const result = spreadRefund(mixed, 10_000);
    expect(result).toEqual({
      ok: true,
      split: {
        basis: "proportional",
        amountCents: 10_000,
        // 10000 of 45996: 2934.38, 5435.04, 1630.58 -> largest remainder
        lines: [
          { orderItemId: PADS, quantity: 0, amountCents: 2_934 },
          { orderItemId: NAPPIES, quantity: 0, amountCents: 5_435 },
        ],
        deliveryCents: 1_631,
      },
    });
    // Recorded as parts, it reverses what the amount alone did before lines were recorded.
    const [recorded] = creditNoteVats(invoiceLines, [{ partsCents: [2_934, 5_435, 1_631] }]);
    const [amount] = creditNoteVats(invoiceLines, [10_000]);
    expect(recorded).toEqual(amount);
  });
});

describe("fitRefundToUnits (a return request's refund)", () => {
  it.each<[string, number, { pads: number; nappies: number; delivery: number; basis: string }]>([
    ["the units' price", 4_499, { pads: 4_499, nappies: 0, delivery: 0, basis: "lines" }],
    ["less: shared over the units", 4_000, { pads: 4_000, nappies: 0, delivery: 0, basis: "lines" }],
    ["more: the rest on the delivery fee", 4_499 + 7_500, { pads: 4_499, nappies: 0, delivery: 7_500, basis: "lines" }],
    [
      "more than the units and delivery: spread",
      4_499 + 7_501,
      { pads: 3_521, nappies: 6_522, delivery: 1_957, basis: "proportional" },
    ],
  ])("%s", (_, amount, expected) => {
    const result = fitRefundToUnits(mixed, [{ orderItemId: PADS, quantity: 1 }], amount);
    if (!result.ok) throw new Error(result.message);
    const part = (id: number) => result.split.lines.find((line) => line.orderItemId === id)?.amountCents ?? 0;
    expect({
      pads: part(PADS),
      nappies: part(NAPPIES),
      delivery: result.split.deliveryCents,
      basis: result.split.basis,
    }).toEqual(expected);
    expect(result.split.amountCents).toBe(amount);
  });

  it("spreads a request that names no units, or units credited another way since", () => {
    expect(fitRefundToUnits(mixed, [], 1_000)).toMatchObject({ ok: true, split: { basis: "proportional" } });
    const credited = creditedAfter([{ partsCents: [13_497, 0, 0], units: [3, 0, 0] }]);
    expect(fitRefundToUnits(credited, [{ orderItemId: PADS, quantity: 1 }], 1_000)).toMatchObject({
      ok: true,
      split: { basis: "proportional", lines: [{ orderItemId: NAPPIES }], deliveryCents: 231 },
    });
  });
});
