import { describe, expect, it } from "vitest";
import {
  bestTier,
  bestTierPerUnitText,
  combineSavings,
  describeTier,
  type MultibuyTier,
  multibuyProgress,
  multibuySavings,
  nextTierText,
  perUnitAfterTierCents,
  tierReached,
  tierSavingCents,
  tiersProblem,
  tiersText,
} from "./multibuy.js";
import { checkPromo, type PromoRule, plainFigures } from "./promo.js";

const TIERS: MultibuyTier[] = [
  { minPacks: 2, offBp: 300 },
  { minPacks: 4, offBp: 600 },
];
const tiersOf = (productId: string) => (productId === "nappies" ? TIERS : []);
const line = (productId: string, unitCents: number, quantity: number) => ({
  productId,
  quantity,
  amountCents: unitCents * quantity,
});

describe("tiersProblem", () => {
  it.each([
    ["no tiers", [], null],
    ["two ascending tiers", TIERS, null],
    [
      "five tiers at the limits",
      [2, 3, 4, 5, 999].map((minPacks, i) => ({ minPacks, offBp: [1, 2, 3, 4, 5000][i] ?? 0 })),
      null,
    ],
    ["six tiers", [2, 3, 4, 5, 6, 7].map((minPacks) => ({ minPacks, offBp: minPacks * 100 })), "at most 5"],
    ["packs from 1", [{ minPacks: 1, offBp: 300 }], "from 2 to 999"],
    ["packs from 1000", [{ minPacks: 1000, offBp: 300 }], "from 2 to 999"],
    ["0% off", [{ minPacks: 2, offBp: 0 }], "from 0.01% to 50%"],
    ["50.01% off", [{ minPacks: 2, offBp: 5001 }], "from 0.01% to 50%"],
    ["a fraction of a basis point", [{ minPacks: 2, offBp: 2.5 }], "from 0.01% to 50%"],
    [
      "packs not ascending",
      [
        { minPacks: 4, offBp: 300 },
        { minPacks: 2, offBp: 600 },
      ],
      "more than the tier before (4)",
    ],
    [
      "the same packs twice",
      [
        { minPacks: 2, offBp: 300 },
        { minPacks: 2, offBp: 600 },
      ],
      "more than the tier before",
    ],
    [
      "a bigger buy saving less",
      [
        { minPacks: 2, offBp: 600 },
        { minPacks: 4, offBp: 300 },
      ],
      "save more than the tier before (6%)",
    ],
  ])("%s", (_name, tiers, problem) => {
    const found = tiersProblem(tiers as MultibuyTier[]);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe("the tier reached", () => {
  it.each([
    [0, null],
    [1, null],
    [2, 300],
    [3, 300],
    [4, 600],
    [40, 600],
  ])("%i packs reach %s", (packs, offBp) => {
    expect(tierReached(TIERS, packs)?.offBp ?? null).toBe(offBp);
  });

  it("reads the best tier and says a tier in words", () => {
    expect(bestTier(TIERS)).toEqual({ minPacks: 4, offBp: 600 });
    expect(bestTier([])).toBeNull();
    expect(describeTier({ minPacks: 2, offBp: 300 })).toBe("2+ packs: 3% off");
  });
});

describe("multibuySavings", () => {
  it("counts the packs of every size of a product together", () => {
    // One pack of two sizes: 2 packs, 3% of R499.98 = R15.00 (14.9994 rounds half up).
    const savings = multibuySavings([line("nappies", 24_999, 1), line("nappies", 24_999, 1)], tiersOf);
    expect(savings).toEqual({ discountCents: 1_500, lineDiscountsCents: [750, 750] });
  });

  it("spreads the product's saving over its lines by largest remainder, adding up exactly", () => {
    // 4 packs at 6%: 2 x 249.99 + 2 x 279.99 = 1059.96 -> 63.60 (63.5976).
    const savings = multibuySavings([line("nappies", 24_999, 2), line("nappies", 27_999, 2)], tiersOf);
    expect(savings.discountCents).toBe(6_360);
    expect(savings.lineDiscountsCents).toEqual([3_000, 3_360]);
  });

  it("leaves other products' lines alone, and a product under its first tier", () => {
    const savings = multibuySavings([line("pads", 5_000, 9), line("nappies", 24_999, 1)], tiersOf);
    expect(savings).toEqual({ discountCents: 0, lineDiscountsCents: [0, 0] });
  });

  it("rounds a tier's saving half up to the cent", () => {
    expect(tierSavingCents(50, 300)).toBe(2); // 1.5 -> 2
    expect(tierSavingCents(49, 300)).toBe(1); // 1.47 -> 1
  });
});

describe("the next tier", () => {
  it("says what one more pack saves, and nothing at the top", () => {
    const two = multibuyProgress(TIERS, [line("nappies", 24_999, 1), line("nappies", 27_999, 1)]);
    expect(two.reached?.offBp).toBe(300);
    expect(two.savingCents).toBe(1_590); // 3% of 529.98
    // 2 more packs at the cheapest (249.99): 6% of 1029.96 = 61.80.
    expect(nextTierText(two)).toBe("Add 2 more packs to save R61.80 (6% off).");
    const three = multibuyProgress(TIERS, [line("nappies", 19_500, 3)]);
    expect(nextTierText(three)).toBe("Add 1 more pack to save R46.80 (6% off).");
    expect(nextTierText(multibuyProgress(TIERS, [line("nappies", 19_500, 4)]))).toBe("");
  });

  it("gives the price per unit after a tier", () => {
    // R199.99 less 3% (6.00) = 193.99, over 104 nappies: R1.87.
    expect(perUnitAfterTierCents(19_999, 104, 300)).toBe(187);
  });
});

describe("combineSavings with a promo code", () => {
  const lines = [line("nappies", 24_999, 2), line("pads", 10_000, 1)];
  const promoLines = lines.map((each) => ({
    productId: each.productId,
    categoryId: null,
    amountCents: each.amountCents,
  }));
  const code = (over: Partial<PromoRule>): PromoRule => ({
    code: "SAVE",
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
  const now = new Date("2026-11-26T10:00:00Z");
  const run = (rule: "best" | "both", promo: PromoRule) =>
    combineSavings(multibuySavings(lines, tiersOf), plainFigures(promoLines), rule, (off) =>
      checkPromo(promo, promoLines, now, { total: 0, byCustomer: 0 }, off),
    );

  it("'best' keeps the code when it saves more, and the tiers otherwise (the tiers on a tie)", () => {
    // Goods 599.98; tiers 3% of 499.98 = 15.00; 10% code = 60.00.
    const ten = run("best", code({ percent: 10 }));
    expect(ten).toMatchObject({
      ok: true,
      figures: { promoApplied: true, discountCents: 6_000, multibuyDiscountCents: 0 },
    });
    expect(ten.ok && ten.figures.totalCents).toBe(59_998 - 6_000);
    const fixed = run("best", code({ kind: "fixed", percent: null, amountCents: 1_500 }));
    expect(fixed).toMatchObject({
      ok: true,
      figures: { promoApplied: false, discountCents: 0, multibuyDiscountCents: 1_500 },
    });
    expect(fixed.ok && fixed.figures.totalCents).toBe(59_998 - 1_500);
  });

  it("'both' takes the tiers first, then the code on what is left", () => {
    const both = run("both", code({ percent: 10 }));
    // After the tiers: 484.98 + 100.00 = 584.98; 10% = 58.50.
    expect(both).toMatchObject({
      ok: true,
      figures: {
        promoApplied: true,
        multibuyDiscountCents: 1_500,
        discountCents: 5_850,
        lineDiscountsCents: [4_850, 1_000],
      },
    });
    expect(both.ok && both.figures.totalCents).toBe(59_998 - 1_500 - 5_850);
  });

  it("passes a refused code on", () => {
    expect(run("both", code({ active: false }))).toMatchObject({ ok: false, code: "PROMO_UNKNOWN" });
  });
});

describe("the storefront's words", () => {
  const product = {
    price: "199.99",
    sizes: ["S", "M"],
    sizePrices: { S: "199.99", M: "219.99" },
    sizePackCounts: { S: 104, M: 96 },
    packUnit: "nappy",
    multibuyTiers: TIERS,
  };
  it("lists the tiers and the best price per unit at the best tier", () => {
    expect(tiersText(product)).toBe("2+ packs: 3% off · 4+ packs: 6% off");
    // S: 199.99 less 6% (12.00) = 187.99 / 104 = R1.81; M: 206.79 / 96 = R2.15.
    expect(bestTierPerUnitText(product)).toBe("from R1.81 per nappy at 4+ packs");
  });
  it("says nothing without tiers or pack counts", () => {
    expect(tiersText({ ...product, multibuyTiers: [] })).toBe("");
    expect(bestTierPerUnitText({ ...product, multibuyTiers: undefined })).toBe("");
    expect(bestTierPerUnitText({ ...product, sizePackCounts: {} })).toBe("");
  });
});
