import { describe, expect, it } from "vitest";
import { checkPromo, discountOn, type PromoLine, type PromoRule, spreadDiscount } from "./promo.js";
import { invoiceVat } from "./vat.js";

const rule = (over: Partial<PromoRule> = {}): PromoRule => ({
  code: "SAVE10",
  kind: "percent",
  percent: 10,
  amountCents: null,
  minSpendCents: null,
  startsAt: null,
  endsAt: null,
  maxUses: null,
  maxUsesPerCustomer: null,
  productIds: [],
  categoryIds: [],
  active: true,
  ...over,
});
const NOW = new Date("2026-11-26T10:00:00Z");
const NO_USES = { total: 0, byCustomer: 0 };
const line = (productId: string, amountCents: number, categoryId: string | null = "baby"): PromoLine => ({
  productId,
  categoryId,
  amountCents,
});

describe("spreadDiscount", () => {
  it("spreads in proportion and adds up exactly, the largest remainders taking the odd cents", () => {
    // 1000 over 3333/3333/3334: 333.3 / 333.3 / 333.4 -> 333, 333, 334
    expect(spreadDiscount(1000, [3333, 3333, 3334], [true, true, true])).toEqual([333, 333, 334]);
    // 100 over three equal lines: the earlier line takes the odd cent on a tie
    expect(spreadDiscount(100, [999, 999, 999], [true, true, true])).toEqual([34, 33, 33]);
  });

  it("gives nothing to a line the code does not apply to", () => {
    expect(spreadDiscount(500, [10_000, 5_000, 5_000], [false, true, true])).toEqual([0, 250, 250]);
  });

  it("never gives a line more than its amount", () => {
    expect(spreadDiscount(300, [100, 200], [true, true])).toEqual([100, 200]);
  });

  it("refuses a discount larger than the lines it applies to", () => {
    expect(() => spreadDiscount(301, [100, 200], [true, true])).toThrow(RangeError);
    expect(() => spreadDiscount(1, [100], [false])).toThrow(RangeError);
  });
});

describe("discountOn", () => {
  it("rounds a percentage half up to the cent and caps a fixed amount at the goods", () => {
    expect(discountOn({ kind: "percent", percent: 10, amountCents: null }, 24_995)).toBe(2_500); // 2499.5
    expect(discountOn({ kind: "percent", percent: 10, amountCents: null }, 24_994)).toBe(2_499);
    expect(discountOn({ kind: "fixed", percent: null, amountCents: 5_000 }, 3_000)).toBe(3_000);
    expect(discountOn({ kind: "free_delivery", percent: null, amountCents: null }, 3_000)).toBe(0);
  });
});

describe("checkPromo", () => {
  const cart = [line("a", 20_000), line("b", 10_000, "pads")];

  it("never takes the total under PayFast's R5.00 minimum", () => {
    const figures = (over: Partial<PromoRule>, lines: PromoLine[]) => {
      const checked = checkPromo(rule(over), lines, NOW, NO_USES);
      if (!checked.ok) throw new Error(checked.message);
      return checked.figures;
    };
    // R600 of goods, free delivery: 100% off leaves R5.00, spread over the lines.
    const all = figures({ percent: 100 }, [line("a", 40_000), line("b", 20_000)]);
    expect(all).toMatchObject({ discountCents: 59_500, deliveryFeeCents: 0, totalCents: 500 });
    expect(all.lineDiscountsCents.reduce((sum, cents) => sum + cents, 0)).toBe(59_500);
    // R300 of goods and R75 delivery: R500 off the goods leaves the delivery fee, above R5.00.
    expect(figures({ kind: "fixed", percent: null, amountCents: 50_000 }, cart)).toMatchObject({
      discountCents: 30_000,
      totalCents: 7_500,
    });
    // Exactly R5.00 left by the code itself: nothing is taken back.
    expect(figures({ percent: 99 }, [line("a", 50_000)])).toMatchObject({ discountCents: 49_500, totalCents: 500 });
  });

  it("names each refusal", () => {
    const cases: [PromoRule | null, string, RegExp][] = [
      [null, "PROMO_UNKNOWN", /does not exist/],
      [rule({ active: false }), "PROMO_UNKNOWN", /does not exist/],
      [rule({ startsAt: new Date("2026-12-01T00:00:00+02:00") }), "PROMO_NOT_STARTED", /from 1 Dec 2026/],
      [rule({ endsAt: new Date("2026-11-26T10:00:00Z") }), "PROMO_EXPIRED", /expired on 26 Nov 2026/],
      [rule({ minSpendCents: 30_001 }), "PROMO_MINIMUM_SPEND", /minimum spend of R300\.01; add R0\.01 more/],
      [rule({ productIds: ["z"] }), "PROMO_NOT_APPLICABLE", /not for the products/],
    ];
    for (const [given, code, message] of cases) {
      const check = checkPromo(given, cart, NOW, NO_USES);
      expect(check).toMatchObject({ ok: false, code });
      expect(check.ok ? "" : check.message).toMatch(message);
    }
    expect(checkPromo(rule({ maxUsesPerCustomer: 1 }), cart, NOW, { total: 1, byCustomer: 1 })).toMatchObject({
      code: "PROMO_ALREADY_USED",
    });
    expect(checkPromo(rule({ maxUses: 10 }), cart, NOW, { total: 10, byCustomer: 0 })).toMatchObject({
      code: "PROMO_LIMIT_REACHED",
    });
  });

  it("takes the edges: the minimum spend exactly, the last use, the first moment", () => {
    const edge = rule({ minSpendCents: 30_000, maxUses: 10, maxUsesPerCustomer: 2, startsAt: NOW });
    expect(checkPromo(edge, cart, NOW, { total: 9, byCustomer: 1 }).ok).toBe(true);
  });

  it("applies only to the named products or categories and spreads over them", () => {
    const check = checkPromo(rule({ categoryIds: ["pads"], percent: 15 }), cart, NOW, NO_USES);
    expect(check).toMatchObject({
      ok: true,
      figures: { subtotalCents: 30_000, discountCents: 1_500, lineDiscountsCents: [0, 1_500], totalCents: 36_000 },
    });
  });

  it("makes the delivery fee 0 with a free-delivery code", () => {
    const check = checkPromo(rule({ kind: "free_delivery", percent: null }), [line("a", 10_000)], NOW, NO_USES);
    expect(check).toMatchObject({
      ok: true,
      figures: { discountCents: 0, deliveryFeeCents: 0, deliveryDiscountCents: 7_500, totalCents: 10_000 },
    });
  });

  it("keeps the VAT per line right: each line's VAT is on what was paid for it", () => {
    const check = checkPromo(rule({ kind: "fixed", percent: null, amountCents: 10_000 }), cart, NOW, NO_USES);
    if (!check.ok) throw new Error(check.message);
    const [standardOff, zeroOff] = check.figures.lineDiscountsCents;
    expect([standardOff, zeroOff]).toEqual([6_667, 3_333]);
    const vat = invoiceVat({
      lines: [
        { unitPriceCents: 20_000, quantity: 1, vatClass: "standard", vatRateBp: 1500, discountCents: standardOff },
        { unitPriceCents: 10_000, quantity: 1, vatClass: "zero", vatRateBp: 0, discountCents: zeroOff },
      ],
      deliveryFeeCents: check.figures.deliveryFeeCents,
      deliveryVatRateBp: 1500,
    });
    // 13333 + the 7500 fee at 15%: 1739.09 -> 1739; the zero-rated line has none
    expect(vat.byRate).toEqual([
      { vatClass: "standard", rateBp: 1500, exclCents: 18_116, vatCents: 2_717, totalCents: 20_833 },
      { vatClass: "zero", rateBp: 0, exclCents: 6_667, vatCents: 0, totalCents: 6_667 },
    ]);
    expect(vat.totalCents).toBe(check.figures.totalCents);
  });
});
