// A large, realistic catalogue for `npm run seed:products` and the 5,000-product benchmark: the
// brands a South African nappy shop stocks, their lines, sizes and packs, with a price and a pack
// count per size (docs/decisions/022-prices-per-size.md). Pure and deterministic: product k is the
// same on every run, so the command can add "the first N" again without duplicating any.

import type { VatClass } from "#domain/vat.js";

export type GeneratedCategory = "baby" | "kids" | "adult" | "pads" | "extras";

/** The drawing a base photo uses (src/server/seed/seed-product-photos.ts). */
export type PhotoShape = "bag" | "box" | "pouch" | "tub";

export interface Brand {
  name: string;
  /** The pack's colour on its base photo, and a deeper one for its text. */
  colour: string;
  deep: string;
}

export const BRANDS = {
  pampers: { name: "Pampers", colour: "#3fb6b2", deep: "#0b5e63" },
  huggies: { name: "Huggies", colour: "#e2363f", deep: "#7d0f16" },
  cuddlers: { name: "Cuddlers", colour: "#7fb3e6", deep: "#1f4e85" },
  molfix: { name: "Molfix", colour: "#f39a2b", deep: "#7a3f00" },
  tena: { name: "TENA", colour: "#2f6db5", deep: "#0c2c57" },
  always: { name: "Always", colour: "#8e5cc7", deep: "#3f1a6e" },
  lilLets: { name: "Lil-Lets", colour: "#2bb3a3", deep: "#0d5249" },
  kotex: { name: "Kotex", colour: "#e4508f", deep: "#7a1542" },
  stayfree: { name: "Stayfree", colour: "#f2b8cc", deep: "#7d2e4c" },
  sudocrem: { name: "Sudocrem", colour: "#9fb8d9", deep: "#233f66" },
  bennetts: { name: "Bennetts", colour: "#f6d66b", deep: "#6b5200" },
  elizabethAnnes: { name: "Elizabeth Anne's", colour: "#a8d8b0", deep: "#1f5a2c" },
} satisfies Record<string, Brand>;

export type BrandKey = keyof typeof BRANDS;

/** A size: its label, and how its price per unit and its pack's count differ from the line's base. */
interface SizeSpec {
  label: string;
  /** Short form for a one-size product's name ("Size 4"). */
  short: string;
  /** Price per unit relative to the line's (bigger nappies cost more each). */
  unitFactor: number;
  /** Units relative to the pack's base (bigger nappies, fewer to a pack). */
  countFactor: number;
}

interface PackSpec {
  name: string;
  /** Units in a pack of the line's base size. */
  units: number;
  /** Price per unit relative to the smallest pack (bigger packs cost less each). */
  discount: number;
}

interface Kind {
  category: GeneratedCategory;
  vatClass: VatClass;
  /** The unit's word on the page ("R3.12 per nappy"). */
  unit: string;
  shape: PhotoShape;
  sizes: SizeSpec[];
  packs: PackSpec[];
  /** Whether each size is also sold as a product of its own ("Pampers Active Baby Size 4 Jumbo Pack"). */
  singleSizes: boolean;
  descriptions: string[];
}

const size = (label: string, short: string, unitFactor: number, countFactor: number): SizeSpec => ({
  label,
  short,
  unitFactor,
  countFactor,
});
const pack = (name: string, units: number, discount: number): PackSpec => ({ name, units, discount });
const plain = (labels: string[], shortOf = (label: string) => label) =>
  labels.map((label) => size(label, shortOf(label), 1, 1));

const NAPPY_SIZES = [
  size("Newborn (up to 5kg)", "Newborn", 0.9, 1.3),
  size("Size 1 (2-5kg)", "Size 1", 0.92, 1.2),
  size("Size 2 (3-8kg)", "Size 2", 0.96, 1.1),
  size("Size 3 (6-10kg)", "Size 3", 1, 1),
  size("Size 4 (9-14kg)", "Size 4", 1.06, 0.88),
  size("Size 5 (11-16kg)", "Size 5", 1.12, 0.78),
  size("Size 6 (13-18kg)", "Size 6", 1.18, 0.7),
  size("Size 7 / Junior (15kg+)", "Junior", 1.24, 0.64),
];

const KINDS = {
  nappies: {
    category: "baby",
    vatClass: "standard",
    unit: "nappy",
    shape: "bag",
    sizes: NAPPY_SIZES,
    packs: [
      pack("Carry Pack", 24, 1.12),
      pack("Value Pack", 44, 1.05),
      pack("Jumbo Pack", 76, 1),
      pack("Mega Pack", 116, 0.96),
      pack("Monthly Box", 174, 0.92),
    ],
    singleSizes: true,
    descriptions: [
      "Soft, breathable nappies with a wetness indicator and stretchy sides, dry for up to 12 hours, day or night.",
      "A snug fit around the legs and waist with leak guards that keep the bedding dry until morning.",
      "Cotton-soft on the inside with a quick-absorbing core that locks wetness away from baby's skin.",
    ],
  },
  pants: {
    category: "kids",
    vatClass: "standard",
    unit: "pant",
    shape: "bag",
    sizes: [
      size("Size 4 (9-15kg)", "Size 4", 1, 1.1),
      size("Size 5 (12-17kg)", "Size 5", 1.05, 1),
      size("Size 6 (15-25kg)", "Size 6", 1.1, 0.9),
      size("Size 7 (17kg+)", "Size 7", 1.16, 0.84),
    ],
    packs: [
      pack("Value Pack", 30, 1.06),
      pack("Jumbo Pack", 56, 1),
      pack("Mega Pack", 84, 0.96),
      pack("Monthly Box", 120, 0.92),
    ],
    singleSizes: true,
    descriptions: [
      "Pull-up pants that go on like underwear and tear off at the sides, for busy toddlers on the move.",
      "Stretchy all round for a comfortable fit while crawling, walking and climbing, with leak guards for the night.",
    ],
  },
  nightPants: {
    category: "kids",
    vatClass: "standard",
    unit: "pant",
    shape: "bag",
    sizes: [size("4-7 years (17-30kg)", "4-7 Years", 1, 1), size("8-15 years (27-57kg)", "8-15 Years", 1.12, 0.85)],
    packs: [pack("Pack", 9, 1.08), pack("Jumbo Pack", 16, 1), pack("Mega Pack", 27, 0.95)],
    singleSizes: true,
    descriptions: [
      "Discreet night pants that look and feel like underwear, for children who still wet the bed sometimes.",
    ],
  },
  swim: {
    category: "baby",
    vatClass: "standard",
    unit: "nappy",
    shape: "bag",
    sizes: plain(["S (7-13kg)", "M (12-18kg)", "L (16kg+)"], (label) => label.split(" ")[0] ?? label),
    packs: [pack("Pack", 11, 1), pack("Twin Pack", 22, 0.95)],
    singleSizes: true,
    descriptions: ["Swim nappies that don't swell up in the water, with easy tear-open sides for quick changes."],
  },
  wipes: {
    category: "baby",
    vatClass: "standard",
    unit: "wipe",
    shape: "pouch",
    sizes: [size("Fragrance Free", "Fragrance Free", 1, 1), size("Lightly Scented", "Scented", 0.97, 1)],
    packs: [pack("Single", 56, 1), pack("Triple Pack", 168, 0.92), pack("Value Case", 672, 0.84)],
    singleSizes: true,
    descriptions: [
      "Thick, soft wipes with a resealable lid that keeps them moist to the last one.",
      "Water-based wipes with no added fragrance or alcohol, gentle enough for newborn skin.",
    ],
  },
  adultPants: {
    category: "adult",
    vatClass: "standard",
    unit: "pant",
    shape: "bag",
    sizes: [
      size("S (65-85cm)", "Small", 0.96, 1.1),
      size("M (80-110cm)", "Medium", 1, 1),
      size("L (100-135cm)", "Large", 1.05, 0.9),
      size("XL (120-160cm)", "XL", 1.1, 0.8),
    ],
    packs: [
      pack("Pack", 10, 1.08),
      pack("Value Pack", 16, 1.02),
      pack("Jumbo Pack", 30, 0.96),
      pack("Bulk Case", 60, 0.9),
    ],
    singleSizes: true,
    descriptions: [
      "Discreet, underwear-like pants for bladder leaks, with odour control and a breathable, quiet outer layer.",
      "Soft pants that pull up and down like underwear and tear off at the sides, for confidence all day.",
    ],
  },
  adultPads: {
    category: "adult",
    vatClass: "standard",
    unit: "pad",
    shape: "box",
    sizes: plain(["Mini", "Normal", "Extra", "Maxi"]),
    packs: [pack("Pack", 12, 1.05), pack("Value Pack", 24, 1), pack("Jumbo Pack", 48, 0.94)],
    singleSizes: true,
    descriptions: ["Thin pads for light to heavy bladder leaks, with a fast-drying surface and odour control."],
  },
  underpads: {
    category: "adult",
    vatClass: "standard",
    unit: "underpad",
    shape: "box",
    sizes: plain(["60 x 60cm", "60 x 90cm"]),
    packs: [pack("Pack", 15, 1), pack("Jumbo Pack", 30, 0.94)],
    singleSizes: true,
    descriptions: ["Disposable underpads that protect beds and chairs, soft on top and waterproof underneath."],
  },
  periodPads: {
    category: "pads",
    vatClass: "zero",
    unit: "pad",
    shape: "box",
    sizes: [size("Normal", "Normal", 1, 1), size("Long", "Long", 1.06, 0.9), size("Night", "Night", 1.12, 0.8)],
    packs: [
      pack("Pack", 10, 1.08),
      pack("Value Pack", 20, 1),
      pack("Jumbo Pack", 32, 0.95),
      pack("Mega Pack", 48, 0.9),
    ],
    singleSizes: true,
    descriptions: [
      "Thin pads with wings that stay in place and a soft, dry surface for comfortable protection all day.",
      "Extra-long protection at the back for heavier days and nights, with a flexible, quiet wrapper.",
    ],
  },
  liners: {
    category: "pads",
    vatClass: "zero",
    unit: "liner",
    shape: "box",
    sizes: [size("Normal", "Normal", 1, 1), size("Long", "Long", 1.1, 0.85)],
    packs: [pack("Pack", 20, 1.05), pack("Value Pack", 40, 1), pack("Jumbo Pack", 60, 0.94)],
    singleSizes: true,
    descriptions: ["Breathable everyday liners, individually wrapped for the handbag."],
  },
  tampons: {
    category: "pads",
    vatClass: "standard",
    unit: "tampon",
    shape: "box",
    sizes: [
      size("Regular", "Regular", 1, 1),
      size("Super", "Super", 1.04, 0.9),
      size("Super Plus", "Super Plus", 1.08, 0.8),
    ],
    packs: [pack("Pack", 8, 1.1), pack("Value Pack", 16, 1), pack("Jumbo Pack", 32, 0.94)],
    singleSizes: true,
    descriptions: ["Non-applicator tampons that expand gently for a comfortable, secure fit."],
  },
  cream: {
    category: "extras",
    vatClass: "standard",
    unit: "tub",
    shape: "tub",
    sizes: [size("125g", "125g", 1, 1), size("250g", "250g", 1.7, 1), size("400g", "400g", 2.5, 1)],
    packs: [pack("Tub", 1, 1)],
    singleSizes: true,
    descriptions: ["A gentle barrier cream that soothes and protects nappy rash, enough for every change."],
  },
  nappyBags: {
    category: "extras",
    vatClass: "standard",
    unit: "bag",
    shape: "pouch",
    sizes: [size("Standard", "Standard", 1, 1), size("Large", "Large", 1.3, 1)],
    packs: [pack("Roll", 100, 1), pack("Value Pack", 300, 0.9)],
    singleSizes: false,
    descriptions: ["Scented nappy bags with tie handles that lock odours in."],
  },
} satisfies Record<string, Kind>;

interface Line {
  brand: BrandKey;
  name: string;
  kind: keyof typeof KINDS;
  /** Cents per unit of the line's base size in a pack without discount. */
  unitCents: number;
  /** Index range of the kind's sizes this line comes in (default: all). */
  sizes?: [from: number, to: number];
}

/** What the shop stocks, brand by brand (prices per unit are what South African shops charged in 2026). */
const LINES: Line[] = [
  { brand: "pampers", name: "Active Baby", kind: "nappies", unitCents: 520, sizes: [1, 7] },
  { brand: "pampers", name: "Baby-Dry", kind: "nappies", unitCents: 470, sizes: [1, 6] },
  { brand: "pampers", name: "Premium Care", kind: "nappies", unitCents: 640, sizes: [0, 6] },
  { brand: "pampers", name: "Pants", kind: "pants", unitCents: 610 },
  { brand: "pampers", name: "Splashers", kind: "swim", unitCents: 1150 },
  { brand: "pampers", name: "Sensitive Wipes", kind: "wipes", unitCents: 68 },
  { brand: "pampers", name: "Fresh Clean Wipes", kind: "wipes", unitCents: 58 },
  { brand: "huggies", name: "Dry Comfort", kind: "nappies", unitCents: 450, sizes: [1, 6] },
  { brand: "huggies", name: "Gold", kind: "nappies", unitCents: 600, sizes: [0, 6] },
  { brand: "huggies", name: "Pull-Ups", kind: "pants", unitCents: 590 },
  { brand: "huggies", name: "DryNites", kind: "nightPants", unitCents: 1090 },
  { brand: "huggies", name: "Little Swimmers", kind: "swim", unitCents: 1190 },
  { brand: "huggies", name: "Thick Baby Wipes", kind: "wipes", unitCents: 62 },
  { brand: "cuddlers", name: "Ultra Dry", kind: "nappies", unitCents: 360, sizes: [0, 6] },
  { brand: "cuddlers", name: "Pants", kind: "pants", unitCents: 470, sizes: [0, 2] },
  { brand: "cuddlers", name: "Baby Wipes", kind: "wipes", unitCents: 45 },
  { brand: "molfix", name: "Comfort Fix", kind: "nappies", unitCents: 390, sizes: [1, 7] },
  { brand: "molfix", name: "Pants", kind: "pants", unitCents: 480 },
  { brand: "molfix", name: "Pure & Soft Wipes", kind: "wipes", unitCents: 48 },
  { brand: "tena", name: "Pants Normal", kind: "adultPants", unitCents: 1450 },
  { brand: "tena", name: "Pants Plus", kind: "adultPants", unitCents: 1590 },
  { brand: "tena", name: "Pants Super", kind: "adultPants", unitCents: 1790 },
  { brand: "tena", name: "Pants Night", kind: "adultPants", unitCents: 1950, sizes: [1, 3] },
  { brand: "tena", name: "Lady Discreet Pads", kind: "adultPads", unitCents: 520 },
  { brand: "tena", name: "Men Level Guards", kind: "adultPads", unitCents: 610, sizes: [1, 3] },
  { brand: "tena", name: "Bed Underpads", kind: "underpads", unitCents: 690 },
  { brand: "always", name: "Ultra", kind: "periodPads", unitCents: 330 },
  { brand: "always", name: "Maxi Thick", kind: "periodPads", unitCents: 280 },
  { brand: "always", name: "Platinum", kind: "periodPads", unitCents: 410 },
  { brand: "always", name: "Dailies Liners", kind: "liners", unitCents: 95 },
  { brand: "lilLets", name: "Tampons", kind: "tampons", unitCents: 450 },
  { brand: "lilLets", name: "Teens Pads", kind: "periodPads", unitCents: 300 },
  { brand: "lilLets", name: "Night Pads", kind: "periodPads", unitCents: 350, sizes: [1, 2] },
  { brand: "kotex", name: "Ultra Thin", kind: "periodPads", unitCents: 310 },
  { brand: "kotex", name: "Maxi Protect", kind: "periodPads", unitCents: 270 },
  { brand: "kotex", name: "Liners", kind: "liners", unitCents: 85 },
  { brand: "kotex", name: "Tampons", kind: "tampons", unitCents: 420 },
  { brand: "stayfree", name: "Maxi", kind: "periodPads", unitCents: 260 },
  { brand: "sudocrem", name: "Antiseptic Healing Cream", kind: "cream", unitCents: 9990 },
  { brand: "bennetts", name: "Nappy Rash Cream", kind: "cream", unitCents: 6490, sizes: [0, 1] },
  { brand: "elizabethAnnes", name: "Nappy Bags", kind: "nappyBags", unitCents: 35 },
];

/** A product as many buy it: one pack, or a bundle of two or three at a little off. */
const BUNDLES = [
  { count: 1, suffix: "", discount: 1 },
  { count: 2, suffix: ", Bundle of 2", discount: 0.97 },
  { count: 3, suffix: ", Bundle of 3", discount: 0.95 },
];

/** Promotional editions of the same pack (the packaging differs, the price does not). */
const EDITIONS = ["", " (Limited Edition)", " (Special Pack)"];

/** The most products the generator makes: its combinations, then a "Series N" of each. */
export const MAX_GENERATED_PRODUCTS = 20_000;

export interface GeneratedProduct {
  /** Its place in the generated catalogue, 0-based: the same product on every run. */
  index: number;
  name: string;
  brand: BrandKey;
  category: GeneratedCategory;
  vatClass: VatClass;
  /** Which base photo it shows (seed-product-photos.ts). */
  photo: { brand: BrandKey; shape: PhotoShape };
  description: string;
  sizes: string[];
  sizePrices: Record<string, number>;
  sizePackCounts: Record<string, number>;
  packUnit: string;
  /** The lowest size price, the card's "from". */
  priceCents: number;
  stock: Record<string, number>;
  promoText: string | null;
  /** Adult and period products: a level 1-6 (src/domain/absorbency.ts), spread evenly; null for the rest. */
  absorbency: number | null;
}

/** A small, fast, seeded PRNG (mulberry32): the same sequence everywhere. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shelf price: up to the next R x9.99 (R389.99), or x.99 under R100. */
const shelfPrice = (cents: number) =>
  cents < 10_000 ? Math.ceil(cents / 100) * 100 - 1 : Math.ceil(cents / 1000) * 1000 - 1;

interface Combination {
  line: Line;
  pack: PackSpec;
  /** null: every size of the line; otherwise the one size this product is. */
  single: SizeSpec | null;
  bundle: (typeof BUNDLES)[number];
  edition: string;
}

let combinations: Combination[] | null = null;

/** Every distinct product the lines make, in a fixed shuffled order (so any first N spans brands and categories). */
function allCombinations(): Combination[] {
  if (combinations) return combinations;
  const list: Combination[] = [];
  for (const line of LINES) {
    const kind: Kind = KINDS[line.kind];
    const sizes = lineSizes(line);
    const variants = [null, ...(kind.singleSizes && sizes.length > 1 ? sizes : [])];
    for (const pack of kind.packs)
      for (const single of variants)
        for (const bundle of BUNDLES)
          for (const edition of EDITIONS) list.push({ line, pack, single, bundle, edition });
  }
  const next = random(20_261_126);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j] as Combination, list[i] as Combination];
  }
  combinations = list;
  return list;
}

function lineSizes(line: Line): SizeSpec[] {
  const sizes = KINDS[line.kind].sizes;
  const [from, to] = line.sizes ?? [0, sizes.length - 1];
  return sizes.slice(from, to + 1);
}

/** The product at `index` of the generated catalogue (0 <= index < MAX_GENERATED_PRODUCTS). */
export function generatedProduct(index: number): GeneratedProduct {
  const all = allCombinations();
  const { line, pack, single, bundle, edition } = all[index % all.length] as Combination;
  const series = Math.floor(index / all.length);
  const kind: Kind = KINDS[line.kind];
  const brand = BRANDS[line.brand];
  const next = random(index + 1);
  const sizes = single ? [single] : lineSizes(line);

  const sizePrices: Record<string, number> = {};
  const sizePackCounts: Record<string, number> = {};
  const stock: Record<string, number> = {};
  for (const each of sizes) {
    // Packs of 20 and more hold an even number.
    const units =
      pack.units >= 20
        ? Math.round((pack.units * each.countFactor) / 2) * 2
        : Math.max(1, Math.round(pack.units * each.countFactor));
    const count = units * bundle.count;
    sizePackCounts[each.label] = count;
    sizePrices[each.label] = shelfPrice(count * line.unitCents * each.unitFactor * pack.discount * bundle.discount);
    // Mostly well stocked; now and then one size sold out or down to its last few.
    const roll = next();
    stock[each.label] = roll < 0.06 ? 0 : roll < 0.14 ? 1 + Math.floor(next() * 5) : 20 + Math.floor(next() * 220);
  }

  const sizePart = single ? ` ${single.short}` : "";
  const seriesPart = series > 0 ? ` Series ${series + 1}` : "";
  const name = `${brand.name} ${line.name}${sizePart} ${pack.name}${edition}${bundle.suffix}${seriesPart}`;
  const promo = next();
  return {
    index,
    name,
    brand: line.brand,
    category: kind.category,
    vatClass: kind.vatClass,
    photo: { brand: line.brand, shape: kind.shape },
    description: `${kind.descriptions[index % kind.descriptions.length]} ${brand.name} ${line.name}, ${pack.name.toLowerCase()}${
      bundle.count > 1 ? `, ${bundle.count} packs together` : ""
    }.`,
    sizes: sizes.map((each) => each.label),
    sizePrices,
    sizePackCounts,
    packUnit: kind.unit,
    priceCents: Math.min(...Object.values(sizePrices)),
    stock,
    promoText: promo < 0.06 ? "Save R30 this week" : promo < 0.1 ? "Buy 2, save R50" : null,
    absorbency: kind.category === "adult" || kind.category === "pads" ? 1 + (index % 6) : null,
  };
}

/** The first `count` products of the generated catalogue. */
export function generatedProducts(count: number): GeneratedProduct[] {
  return Array.from({ length: count }, (_, index) => generatedProduct(index));
}

/** The base photos the generated products use: one per brand and shape. */
export function basePhotoKinds(): { brand: BrandKey; shape: PhotoShape }[] {
  const seen = new Map<string, { brand: BrandKey; shape: PhotoShape }>();
  for (const line of LINES) {
    const shape = KINDS[line.kind].shape;
    seen.set(`${line.brand}-${shape}`, { brand: line.brand, shape });
  }
  return [...seen.values()];
}
