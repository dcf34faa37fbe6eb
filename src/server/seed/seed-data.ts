import type { MultibuyTier } from "#domain/multibuy.js";
// The catalogue seeded into a fresh database: plain, deterministic data.
// Images ship with the project (src/web/public/images/products/, made by
// scripts/generate-packshots.mjs); keep the file names here in step with that script.

import type { Absorbency } from "#domain/absorbency.js";
import type { VatClass } from "#domain/vat.js";

export interface SeedCategory {
  /** Lower-case: products carry the category name on the wire. */
  name: string;
  description: string;
}

export interface SeedProduct {
  name: string;
  category: "baby" | "kids" | "adult" | "pads" | "extras";
  /** "zero" for sanitary pads and pantyliners (VAT Act Schedule 2 Part C); standard-rated when left out. */
  vatClass?: VatClass;
  /** Rand with 2 decimals, VAT included, e.g. "249.99". */
  price: string;
  /** Served from the public folder, e.g. "/images/products/adult-pants.svg". */
  image: string;
  description: string;
  sizes: string[];
  /** Per-size images for some sizes; keys are entries of `sizes`. */
  sizeImages: Record<string, string>;
  /** Units in stock of the sizes that do not have SEED_STOCK (0: sold out); keys are entries of `sizes`. */
  stock: Record<string, number>;
  promoText: string | null;
}

/** Units of each size the seed stocks unless a product says otherwise. */
export const SEED_STOCK = 50;

export const seedCategories: SeedCategory[] = [
  { name: "baby", description: "Nappies, wipes and swim nappies for newborns, babies and toddlers." },
  { name: "kids", description: "Pull-up pants, training pants and night pants for growing children." },
  { name: "adult", description: "Discreet pants, briefs, pads and underpads for adults living with bladder leaks." },
  { name: "pads", description: "Pads, liners, tampons and period underwear for every day of your cycle." },
  { name: "extras", description: "Creams, changing mats, disposal bags and bed protectors that make changes easier." },
];

export const seedProducts: SeedProduct[] = [
  // Baby
  {
    name: "Snug & Dry Newborn Nappies",
    category: "baby",
    price: "249.99",
    image: "/images/products/baby-newborn-nappies.svg",
    description:
      "Extra-soft nappies with a little cut-out for the umbilical cord, made for the very first weeks. Gentle on brand-new skin and snug around tiny legs.",
    sizes: ["Newborn (up to 4kg)", "Size 1 (2-5kg)"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Baby Nappies Value Pack",
    category: "baby",
    price: "399.99",
    image: "/images/products/baby-nappies-value-pack.svg",
    description:
      "Our everyday nappy in a big pack that lasts, with a wetness indicator and stretchy sides for a comfy fit. Up to 12 hours of dryness, day or night.",
    sizes: [
      "Size 1 (2-5kg)",
      "Size 2 (3-6kg)",
      "Size 3 (4-9kg)",
      "Size 4 (7-18kg)",
      "Size 5 (11-25kg)",
      "Size 6 (16kg+)",
    ],
    sizeImages: {
      "Size 1 (2-5kg)": "/images/products/baby-nappies-value-pack-size-1.svg",
      "Size 3 (4-9kg)": "/images/products/baby-nappies-value-pack-size-3.svg",
      "Size 5 (11-25kg)": "/images/products/baby-nappies-value-pack-size-5.svg",
    },
    stock: { "Size 6 (16kg+)": 0 },
    promoText: "Save R50 this week",
  },
  {
    name: "Snug & Dry Premium Nappies Jumbo Pack",
    category: "baby",
    price: "459.99",
    image: "/images/products/baby-premium-nappies-jumbo.svg",
    description:
      "Our softest, most absorbent nappy with a breathable, cotton-feel cover. A jumbo pack means fewer trips to the shops.",
    sizes: ["Size 3 (4-9kg)", "Size 4 (7-18kg)", "Size 5 (11-25kg)"],
    sizeImages: {},
    stock: { "Size 5 (11-25kg)": 3 },
    promoText: "Save R40 this week",
  },
  {
    name: "Snug & Dry Overnight Nappies",
    category: "baby",
    price: "299.99",
    image: "/images/products/baby-overnight-nappies.svg",
    description:
      "Extra absorbency in the front and back for long nights, so everyone gets more sleep. Soft leak guards help keep the bedding dry until morning.",
    sizes: ["Size 4 (7-18kg)", "Size 5 (11-25kg)", "Size 6 (16kg+)"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Bamboo Eco Nappies",
    category: "baby",
    price: "349.99",
    image: "/images/products/baby-bamboo-nappies.svg",
    description:
      "Plant-based nappies with a soft bamboo-fibre top sheet and no added fragrance. A kinder choice for sensitive skin and for the planet.",
    sizes: ["S (3-6kg)", "M (6-11kg)", "L (9-14kg)", "XL (12kg+)"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Swim Nappies",
    category: "baby",
    price: "129.99",
    image: "/images/products/baby-swim-nappies.svg",
    description:
      "Swim nappies that don't swell up in the water, for splash days at the pool or the beach. Easy tear-open sides make changing quick.",
    sizes: ["S (7-13kg)", "M (12-18kg)", "L (16kg+)"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Sensitive Baby Wipes",
    category: "baby",
    price: "39.99",
    image: "/images/products/baby-sensitive-wipes.svg",
    description:
      "Water-based wipes with no added fragrance or alcohol, gentle enough for newborn skin. The resealable lid keeps them moist to the last wipe.",
    sizes: ["64 wipes"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Baby Wipes Multipack",
    category: "baby",
    price: "99.99",
    image: "/images/products/baby-wipes-multipack.svg",
    description:
      "Three packs of our sensitive wipes, so there's always one in the nappy bag, the car and the bedroom. Fragrance-free and alcohol-free.",
    sizes: ["3 x 64 wipes"],
    sizeImages: {},
    stock: {},
    promoText: "Bulk value pack",
  },

  // Kids
  {
    name: "Snug & Dry Pull-Up Pants",
    category: "kids",
    price: "279.99",
    image: "/images/products/kids-pull-up-pants.svg",
    description:
      "They pull up and down just like big-kid underwear, with easy tear-open sides for quick changes. Great for busy toddlers who won't lie still.",
    sizes: ["Size 4 (9-15kg)", "Size 5 (12-17kg)", "Size 6 (15-25kg)"],
    sizeImages: {
      "Size 4 (9-15kg)": "/images/products/kids-pull-up-pants-size-4.svg",
      "Size 5 (12-17kg)": "/images/products/kids-pull-up-pants-size-5.svg",
      "Size 6 (15-25kg)": "/images/products/kids-pull-up-pants-size-6.svg",
    },
    stock: {},
    promoText: "Save R30 this week",
  },
  {
    name: "Snug & Dry Pull-Up Pants Jumbo Pack",
    category: "kids",
    price: "449.99",
    image: "/images/products/kids-pull-up-pants-jumbo.svg",
    description:
      "Our pull-up pants in a bigger pack for busy households. Soft, stretchy and easy for little hands to manage.",
    sizes: ["Size 4 (9-15kg)", "Size 5 (12-17kg)", "Size 6 (15-25kg)"],
    sizeImages: {},
    stock: {},
    promoText: "Bulk value pack",
  },
  {
    name: "Snug & Dry Potty Training Pants",
    category: "kids",
    price: "249.99",
    image: "/images/products/kids-potty-training-pants.svg",
    description:
      "Training pants with a feel-wet layer that helps little ones notice when it's time to go. Cheerful prints make the potty a bit more exciting.",
    sizes: ["Size 5 (12-17kg)", "Size 6 (15-25kg)"],
    sizeImages: {},
    stock: { "Size 6 (15-25kg)": 0 },
    promoText: null,
  },
  {
    name: "Snug & Dry Night Pants",
    category: "kids",
    price: "189.99",
    image: "/images/products/kids-night-pants.svg",
    description:
      "Discreet, underwear-like pants for children who still have wet nights. Quiet material and a soft waistband, so they can go to sleepovers with confidence.",
    sizes: ["4-7 years (17-30kg)", "8-15 years (27-57kg)"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Kids Disposable Bed Mats",
    category: "kids",
    price: "139.99",
    image: "/images/products/kids-bed-mats.svg",
    description:
      "Stick-down mats that sit under the sheet and protect the mattress on wet nights. Just lift and throw away in the morning.",
    sizes: ["80 x 90cm"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },

  // Adult
  {
    name: "Snug & Dry Adult Pants",
    category: "adult",
    price: "269.99",
    image: "/images/products/adult-pants.svg",
    description:
      "Soft, underwear-style pants for moderate to heavy bladder leaks, with odour control and a quiet, breathable cover. They pull up and down like ordinary underwear.",
    sizes: ["S", "M", "L", "XL"],
    sizeImages: {
      M: "/images/products/adult-pants-m.svg",
      L: "/images/products/adult-pants-l.svg",
      XL: "/images/products/adult-pants-xl.svg",
    },
    stock: {},
    promoText: "Save R40 this week",
  },
  {
    name: "Snug & Dry Adult Briefs Super",
    category: "adult",
    price: "319.99",
    image: "/images/products/adult-briefs-super.svg",
    description:
      "All-in-one briefs with refastenable tabs for heavy incontinence, easy for carers to change someone in bed. Leak guards and a wetness indicator help keep skin dry and comfortable.",
    sizes: ["M", "L", "XL"],
    sizeImages: {},
    stock: { XL: 0 },
    promoText: null,
  },
  {
    name: "Snug & Dry Adult Night Pants",
    category: "adult",
    price: "299.99",
    image: "/images/products/adult-night-pants.svg",
    description:
      "Our most absorbent pants, for a full night's sleep without worry. Extra protection at the back helps when lying down.",
    sizes: ["M", "L", "XL"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Bladder Control Pads",
    category: "adult",
    price: "89.99",
    image: "/images/products/adult-bladder-pads.svg",
    description:
      "Slim pads that sit in your everyday underwear for light to heavy bladder leaks. Individually wrapped, so you can keep a few in your bag.",
    sizes: ["Light", "Moderate", "Heavy"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Men's Guards",
    category: "adult",
    price: "94.99",
    image: "/images/products/adult-mens-guards.svg",
    description:
      "Shaped guards designed for men, worn in close-fitting underwear for light leaks. Discreet, with an adhesive strip that keeps them in place.",
    sizes: ["One size"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Disposable Underpads",
    category: "adult",
    price: "159.99",
    image: "/images/products/adult-underpads.svg",
    description:
      "Absorbent pads with a waterproof backing that protect beds, chairs and wheelchairs. Handy for carers at home and for recovery after an operation.",
    sizes: ["60 x 60cm", "60 x 90cm"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Washable Bed Pad",
    category: "adult",
    price: "229.99",
    image: "/images/products/adult-washable-bed-pad.svg",
    description:
      "A quilted, reusable bed pad that washes over and over again. Tuck-in flaps keep it flat and in place under the sheet.",
    sizes: ["85 x 90cm"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },

  // Period
  {
    name: "Snug & Dry Ultra Thin Pads",
    category: "pads",
    vatClass: "zero",
    price: "44.99",
    image: "/images/products/pads-ultra-thin.svg",
    description:
      "Thin, flexible pads with wings that move with you and lock in moisture fast. A soft, breathable cover keeps you comfortable all day.",
    sizes: ["Regular", "Super", "Night"],
    sizeImages: {
      Regular: "/images/products/pads-ultra-thin-regular.svg",
      Super: "/images/products/pads-ultra-thin-super.svg",
      Night: "/images/products/pads-ultra-thin-night.svg",
    },
    stock: {},
    promoText: "Save R10 this week",
  },
  {
    name: "Snug & Dry Maxi Night Pads",
    category: "pads",
    vatClass: "zero",
    price: "54.99",
    image: "/images/products/pads-maxi-night.svg",
    description:
      "Longer pads with a wider back for heavy flow and sleeping through the night. Wings and side barriers help protect against leaks.",
    sizes: ["Night", "Extra Long Night"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Panty Liners",
    category: "pads",
    vatClass: "zero",
    price: "34.99",
    image: "/images/products/pads-panty-liners.svg",
    description:
      "Light, breathable liners for everyday freshness, light flow or the days around your period. Individually wrapped to keep in your handbag.",
    sizes: ["Normal", "Long"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Tampons",
    category: "pads",
    price: "59.99",
    image: "/images/products/pads-tampons.svg",
    description:
      "Non-applicator tampons with a smooth, rounded tip and a secure removal cord. Change every 4 to 8 hours and choose the lowest absorbency you need.",
    sizes: ["Regular", "Super", "Super Plus"],
    sizeImages: {
      Regular: "/images/products/pads-tampons-regular.svg",
      Super: "/images/products/pads-tampons-super.svg",
    },
    stock: { "Super Plus": 0 },
    promoText: null,
  },
  {
    name: "Snug & Dry Period Underwear",
    category: "pads",
    price: "189.99",
    image: "/images/products/pads-period-underwear.svg",
    description:
      "Washable, reusable underwear with a built-in absorbent layer. Wear it on its own on lighter days or as back-up with a pad or tampon on heavy days.",
    sizes: ["XS", "S", "M", "L", "XL", "XXL"],
    sizeImages: {},
    stock: { XXL: 0 },
    promoText: null,
  },
  {
    name: "Snug & Dry Pads Value Box",
    category: "pads",
    vatClass: "zero",
    price: "89.99",
    image: "/images/products/pads-value-box.svg",
    description:
      "A mix of Regular and Super pads in one box, enough for a couple of cycles. Less to think about and better value per pad.",
    sizes: ["40 pads"],
    sizeImages: {},
    stock: {},
    promoText: "Bulk value pack",
  },
  {
    name: "Snug & Dry Organic Cotton Pads",
    category: "pads",
    vatClass: "zero",
    price: "69.99",
    image: "/images/products/pads-organic-cotton.svg",
    description: "Pads with an organic cotton top sheet and no added fragrance or dyes. Gentle on sensitive skin.",
    sizes: ["Regular", "Super"],
    sizeImages: {},
    stock: { Regular: 0, Super: 0 },
    promoText: null,
  },

  // Extras
  {
    name: "Snug & Dry Nappy Rash Cream",
    category: "extras",
    price: "69.99",
    image: "/images/products/extras-nappy-rash-cream.svg",
    description:
      "A zinc barrier cream that soothes and protects red, irritated skin at every nappy change. Fragrance-free and gentle enough for newborns.",
    sizes: ["100ml"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Skin Barrier Cream",
    category: "extras",
    price: "89.99",
    image: "/images/products/extras-skin-barrier-cream.svg",
    description:
      "A rich barrier cream for adult skin that helps protect against moisture and chafing. It absorbs quickly without leaving a greasy feel.",
    sizes: ["150ml"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Travel Changing Mat",
    category: "extras",
    price: "149.99",
    image: "/images/products/extras-changing-mat.svg",
    description:
      "A padded, wipe-clean mat that folds flat into your nappy bag. Useful when the changing room at the mall has seen better days.",
    sizes: ["One size"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Nappy Disposal Bags",
    category: "extras",
    price: "39.99",
    image: "/images/products/extras-disposal-bags.svg",
    description:
      "Lightly scented tie-handle bags for wrapping used nappies and pads before they go in the bin. They keep smells in, at home and in the car.",
    sizes: ["150 bags"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
  {
    name: "Snug & Dry Waterproof Mattress Protector",
    category: "extras",
    price: "299.99",
    image: "/images/products/extras-mattress-protector.svg",
    description:
      "A soft, quiet, waterproof protector that fits like a fitted sheet, for children's and adults' beds alike. Machine washable at 60°C.",
    sizes: ["Single", "Double", "Queen", "King"],
    sizeImages: {},
    stock: { King: 0 },
    promoText: "New in store",
  },
  {
    name: "Snug & Dry Adult Wash Wipes",
    category: "extras",
    price: "64.99",
    image: "/images/products/extras-adult-wash-wipes.svg",
    description:
      "Large, thick wipes for freshening up when a bath or shower isn't practical. Gentle, pH-balanced and fragrance-free.",
    sizes: ["48 wipes"],
    sizeImages: {},
    stock: {},
    promoText: null,
  },
];

/** A product's price and pack per size: [price in rand, units in the pack or null when not counted]. */
export interface SeedPacks {
  /** The unit's word, singular ("nappy"); null when the product is not sold by the unit. */
  unit: string | null;
  sizes: Record<string, [price: string, count: number | null]>;
}

/**
 * Prices and packs per size (docs/decisions/022-prices-per-size.md), by product name: bigger nappy
 * sizes hold fewer nappies and cost more per nappy (R2.31 to R4.22), as in South African shops.
 * A product's price is the lowest of its sizes' (the "from" price). Migration 0015 writes the
 * same figures into a database seeded before; keep the two in step.
 */
export const seedPacks: Record<string, SeedPacks> = {
  "Snug & Dry Newborn Nappies": {
    unit: "nappy",
    sizes: { "Newborn (up to 4kg)": ["249.99", 108], "Size 1 (2-5kg)": ["259.99", 100] },
  },
  "Snug & Dry Baby Nappies Value Pack": {
    unit: "nappy",
    sizes: {
      "Size 1 (2-5kg)": ["399.99", 152],
      "Size 2 (3-6kg)": ["399.99", 132],
      "Size 3 (4-9kg)": ["419.99", 124],
      "Size 4 (7-18kg)": ["439.99", 116],
      "Size 5 (11-25kg)": ["449.99", 108],
      "Size 6 (16kg+)": ["429.99", 102],
    },
  },
  "Snug & Dry Premium Nappies Jumbo Pack": {
    unit: "nappy",
    sizes: {
      "Size 3 (4-9kg)": ["459.99", 136],
      "Size 4 (7-18kg)": ["479.99", 124],
      "Size 5 (11-25kg)": ["489.99", 116],
    },
  },
  "Snug & Dry Overnight Nappies": {
    unit: "nappy",
    sizes: { "Size 4 (7-18kg)": ["299.99", 84], "Size 5 (11-25kg)": ["309.99", 76], "Size 6 (16kg+)": ["299.99", 72] },
  },
  "Snug & Dry Bamboo Eco Nappies": {
    unit: "nappy",
    sizes: {
      "S (3-6kg)": ["349.99", 120],
      "M (6-11kg)": ["369.99", 104],
      "L (9-14kg)": ["379.99", 92],
      "XL (12kg+)": ["379.99", 90],
    },
  },
  "Snug & Dry Swim Nappies": {
    unit: "nappy",
    sizes: { "S (7-13kg)": ["129.99", 12], "M (12-18kg)": ["129.99", 11], "L (16kg+)": ["129.99", 10] },
  },
  "Snug & Dry Sensitive Baby Wipes": { unit: "wipe", sizes: { "64 wipes": ["39.99", 64] } },
  "Snug & Dry Baby Wipes Multipack": { unit: "wipe", sizes: { "3 x 64 wipes": ["99.99", 192] } },
  "Snug & Dry Pull-Up Pants": {
    unit: "pant",
    sizes: {
      "Size 4 (9-15kg)": ["279.99", 74],
      "Size 5 (12-17kg)": ["279.99", 68],
      "Size 6 (15-25kg)": ["269.99", 64],
    },
  },
  "Snug & Dry Pull-Up Pants Jumbo Pack": {
    unit: "pant",
    sizes: {
      "Size 4 (9-15kg)": ["449.99", 124],
      "Size 5 (12-17kg)": ["459.99", 112],
      "Size 6 (15-25kg)": ["459.99", 110],
    },
  },
  "Snug & Dry Potty Training Pants": {
    unit: "pant",
    sizes: { "Size 5 (12-17kg)": ["249.99", 60], "Size 6 (15-25kg)": ["249.99", 56] },
  },
  "Snug & Dry Night Pants": {
    unit: "pant",
    sizes: { "4-7 years (17-30kg)": ["189.99", 16], "8-15 years (27-57kg)": ["199.99", 13] },
  },
  "Snug & Dry Kids Disposable Bed Mats": { unit: "mat", sizes: { "80 x 90cm": ["139.99", 10] } },
  "Snug & Dry Adult Pants": {
    unit: "pant",
    sizes: { S: ["269.99", 28], M: ["269.99", 26], L: ["279.99", 24], XL: ["279.99", 20] },
  },
  "Snug & Dry Adult Briefs Super": {
    unit: "brief",
    sizes: { M: ["319.99", 28], L: ["329.99", 24], XL: ["339.99", 20] },
  },
  "Snug & Dry Adult Night Pants": {
    unit: "pant",
    sizes: { M: ["299.99", 20], L: ["309.99", 18], XL: ["319.99", 16] },
  },
  "Snug & Dry Bladder Control Pads": {
    unit: "pad",
    sizes: { Light: ["89.99", 28], Moderate: ["89.99", 24], Heavy: ["94.99", 20] },
  },
  "Snug & Dry Men's Guards": { unit: "guard", sizes: { "One size": ["94.99", 24] } },
  "Snug & Dry Disposable Underpads": {
    unit: "underpad",
    sizes: { "60 x 60cm": ["159.99", 30], "60 x 90cm": ["179.99", 25] },
  },
  "Snug & Dry Washable Bed Pad": { unit: "pad", sizes: { "85 x 90cm": ["229.99", 1] } },
  "Snug & Dry Ultra Thin Pads": {
    unit: "pad",
    sizes: { Regular: ["44.99", 16], Super: ["44.99", 14], Night: ["49.99", 10] },
  },
  "Snug & Dry Maxi Night Pads": {
    unit: "pad",
    sizes: { Night: ["54.99", 12], "Extra Long Night": ["59.99", 10] },
  },
  "Snug & Dry Panty Liners": { unit: "liner", sizes: { Normal: ["34.99", 40], Long: ["39.99", 32] } },
  "Snug & Dry Tampons": {
    unit: "tampon",
    sizes: { Regular: ["59.99", 32], Super: ["59.99", 24], "Super Plus": ["64.99", 20] },
  },
  "Snug & Dry Period Underwear": {
    unit: "pair",
    sizes: Object.fromEntries(["XS", "S", "M", "L", "XL", "XXL"].map((size) => [size, ["189.99", 1]])),
  },
  "Snug & Dry Pads Value Box": { unit: "pad", sizes: { "40 pads": ["89.99", 40] } },
  "Snug & Dry Organic Cotton Pads": { unit: "pad", sizes: { Regular: ["69.99", 14], Super: ["69.99", 12] } },
  "Snug & Dry Nappy Disposal Bags": { unit: "bag", sizes: { "150 bags": ["39.99", 150] } },
  "Snug & Dry Waterproof Mattress Protector": {
    unit: null,
    sizes: { Single: ["299.99", null], Double: ["349.99", null], Queen: ["379.99", null], King: ["419.99", null] },
  },
  "Snug & Dry Adult Wash Wipes": { unit: "wipe", sizes: { "48 wipes": ["64.99", 48] } },
};

/** A seeded product's columns from seedPacks: prices in cents, counts where known; undefined for a product not listed. */
export function seedPackColumns(name: string) {
  const packs = seedPacks[name];
  if (!packs) return undefined;
  const entries = Object.entries(packs.sizes);
  return {
    sizePrices: Object.fromEntries(entries.map(([size, [price]]) => [size, Math.round(Number(price) * 100)])),
    sizePackCounts: Object.fromEntries(entries.flatMap(([size, [, count]]) => (count ? [[size, count]] : []))),
    packUnit: packs.unit,
  };
}

/** Multi-buy tiers of a few seeded products (issue 42), so a fresh shop shows them; the others have none. */
export const seedMultibuyTiers: Record<string, MultibuyTier[]> = {
  "Snug & Dry Premium Nappies Jumbo Pack": [
    { minPacks: 2, offBp: 300 },
    { minPacks: 4, offBp: 600 },
  ],
  "Snug & Dry Bamboo Eco Nappies": [
    { minPacks: 2, offBp: 300 },
    { minPacks: 3, offBp: 500 },
  ],
  "Snug & Dry Pull-Up Pants Jumbo Pack": [{ minPacks: 3, offBp: 500 }],
};

/**
 * Absorbency of the starter catalogue's adult and period products (issue 42; levels and words in
 * src/domain/absorbency.ts): what a shopper filters by with "at least". The rest say none.
 */
export const seedAbsorbency: Record<string, Absorbency> = {
  "Snug & Dry Adult Pants": 4,
  "Snug & Dry Adult Briefs Super": 5,
  "Snug & Dry Adult Night Pants": 6,
  "Snug & Dry Bladder Control Pads": 2,
  "Snug & Dry Men's Guards": 2,
  "Snug & Dry Disposable Underpads": 5,
  "Snug & Dry Washable Bed Pad": 4,
  "Snug & Dry Ultra Thin Pads": 3,
  "Snug & Dry Maxi Night Pads": 6,
  "Snug & Dry Panty Liners": 1,
  "Snug & Dry Tampons": 4,
  "Snug & Dry Period Underwear": 2,
  "Snug & Dry Pads Value Box": 3,
  "Snug & Dry Organic Cotton Pads": 3,
};
