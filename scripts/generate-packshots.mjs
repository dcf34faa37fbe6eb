#!/usr/bin/env node
// Writes the packshot SVGs for the seeded catalogue into src/web/public/images/products/.
// Plain Node, no dependencies, deterministic output. The file names here must match the
// image paths in src/server/seed/seed-data.ts (tests check that every referenced image exists).
//
// Run: node scripts/generate-packshots.mjs

import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "src/web/public/images/products");

const FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif";
const TEAL = "#0f766e";
const INK = "#1c2430";
const FLOOR = 345; // every pack stands on this line

// Category tints: page background, pack colour, deep accent (size pill, category word).
// The pack colours differ in lightness too, so categories stay apart in grayscale.
const TINTS = {
  baby: { bg: "#eef5fc", pack: "#a9cdee", deep: "#1d4f7a", word: "BABY" },
  kids: { bg: "#fff5e1", pack: "#f9cd7f", deep: "#7a4506", word: "KIDS" },
  adult: { bg: "#f0f0f7", pack: "#b2b6d8", deep: "#3d4275", word: "ADULT" },
  pads: { bg: "#fcf0f3", pack: "#f1b5c5", deep: "#8a2848", word: "PERIOD" },
  extras: { bg: "#eef7f1", pack: "#a9d8b7", deep: "#1f6439", word: "EXTRAS" },
};

// file: base name (no .svg); title: one or two short lines; label: size text on the main shot;
// variants: per-size shots, written as `${file}-${suffix}.svg`.
const PRODUCTS = [
  // Baby
  { file: "baby-newborn-nappies", cat: "baby", shape: "bag", title: ["Newborn", "Nappies"], label: "Up to 5kg" },
  {
    file: "baby-nappies-value-pack",
    cat: "baby",
    shape: "bag",
    title: ["Baby Nappies", "Value Pack"],
    label: "Sizes 1-6",
    variants: [
      { suffix: "size-1", label: "Size 1 (2-5kg)" },
      { suffix: "size-3", label: "Size 3 (4-9kg)" },
      { suffix: "size-5", label: "Size 5 (11-25kg)" },
    ],
  },
  {
    file: "baby-premium-nappies-jumbo",
    cat: "baby",
    shape: "bag",
    title: ["Premium Nappies", "Jumbo Pack"],
    label: "Sizes 3-5",
  },
  { file: "baby-overnight-nappies", cat: "baby", shape: "bag", title: ["Overnight", "Nappies"], label: "Sizes 4-6" },
  { file: "baby-bamboo-nappies", cat: "baby", shape: "bag", title: ["Bamboo Eco", "Nappies"], label: "S-XL" },
  { file: "baby-swim-nappies", cat: "baby", shape: "bag", title: ["Swim", "Nappies"], label: "S-L" },
  { file: "baby-sensitive-wipes", cat: "baby", shape: "pouch", title: ["Sensitive", "Baby Wipes"], label: "64 wipes" },
  {
    file: "baby-wipes-multipack",
    cat: "baby",
    shape: "pouch",
    title: ["Baby Wipes", "Multipack"],
    label: "3 x 64 wipes",
  },
  // Kids
  {
    file: "kids-pull-up-pants",
    cat: "kids",
    shape: "bag",
    title: ["Pull-Up", "Pants"],
    label: "Sizes 4-6",
    variants: [
      { suffix: "size-4", label: "Size 4 (9-15kg)" },
      { suffix: "size-5", label: "Size 5 (12-17kg)" },
      { suffix: "size-6", label: "Size 6 (15-25kg)" },
    ],
  },
  {
    file: "kids-pull-up-pants-jumbo",
    cat: "kids",
    shape: "bag",
    title: ["Pull-Up Pants", "Jumbo Pack"],
    label: "Sizes 4-6",
  },
  {
    file: "kids-potty-training-pants",
    cat: "kids",
    shape: "bag",
    title: ["Potty Training", "Pants"],
    label: "Sizes 5-6",
  },
  { file: "kids-night-pants", cat: "kids", shape: "bag", title: ["Night", "Pants"], label: "4-15 years" },
  { file: "kids-bed-mats", cat: "kids", shape: "folded", title: ["Kids", "Bed Mats"], label: "80 x 90cm" },
  // Adult
  {
    file: "adult-pants",
    cat: "adult",
    shape: "bag",
    title: ["Adult", "Pants"],
    label: "S-XL",
    variants: [
      { suffix: "m", label: "Medium" },
      { suffix: "l", label: "Large" },
      { suffix: "xl", label: "Extra Large" },
    ],
  },
  { file: "adult-briefs-super", cat: "adult", shape: "bag", title: ["Adult Briefs", "Super"], label: "M-XL" },
  { file: "adult-night-pants", cat: "adult", shape: "bag", title: ["Adult", "Night Pants"], label: "M-XL" },
  { file: "adult-bladder-pads", cat: "adult", shape: "box", title: ["Bladder", "Control Pads"], label: "Light-Heavy" },
  { file: "adult-mens-guards", cat: "adult", shape: "box", title: ["Men's", "Guards"], label: "One size" },
  {
    file: "adult-underpads",
    cat: "adult",
    shape: "folded",
    title: ["Disposable", "Underpads"],
    label: "60 x 60 / 90cm",
  },
  { file: "adult-washable-bed-pad", cat: "adult", shape: "folded", title: ["Washable", "Bed Pad"], label: "85 x 90cm" },
  // Period
  {
    file: "pads-ultra-thin",
    cat: "pads",
    shape: "box",
    title: ["Ultra Thin", "Pads"],
    label: "Regular-Night",
    variants: [
      { suffix: "regular", label: "Regular" },
      { suffix: "super", label: "Super" },
      { suffix: "night", label: "Night" },
    ],
  },
  { file: "pads-maxi-night", cat: "pads", shape: "box", title: ["Maxi Night", "Pads"], label: "Night" },
  { file: "pads-panty-liners", cat: "pads", shape: "box", title: ["Panty", "Liners"], label: "Normal & Long" },
  {
    file: "pads-tampons",
    cat: "pads",
    shape: "box",
    title: ["Tampons"],
    label: "Regular-Super Plus",
    variants: [
      { suffix: "regular", label: "Regular" },
      { suffix: "super", label: "Super" },
    ],
  },
  { file: "pads-period-underwear", cat: "pads", shape: "box", title: ["Period", "Underwear"], label: "XS-XXL" },
  { file: "pads-value-box", cat: "pads", shape: "box", title: ["Pads", "Value Box"], label: "40 pads" },
  {
    file: "pads-organic-cotton",
    cat: "pads",
    shape: "box",
    title: ["Organic", "Cotton Pads"],
    label: "Regular & Super",
  },
  // Extras
  { file: "extras-nappy-rash-cream", cat: "extras", shape: "tube", title: ["Nappy Rash", "Cream"], label: "100ml" },
  { file: "extras-skin-barrier-cream", cat: "extras", shape: "tube", title: ["Skin Barrier", "Cream"], label: "150ml" },
  { file: "extras-changing-mat", cat: "extras", shape: "folded", title: ["Travel", "Changing Mat"], label: "One size" },
  { file: "extras-disposal-bags", cat: "extras", shape: "box", title: ["Disposal", "Bags"], label: "150 bags" },
  {
    file: "extras-mattress-protector",
    cat: "extras",
    shape: "folded",
    title: ["Mattress", "Protector"],
    label: "Single-King",
  },
  { file: "extras-adult-wash-wipes", cat: "extras", shape: "pouch", title: ["Adult Wash", "Wipes"], label: "48 wipes" },
];

// ---------------------------------------------------------------------------------------

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const r = (n) => Math.round(n * 10) / 10;

function mix(a, b, t) {
  const pa = [1, 3, 5].map((i) => Number.parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => Number.parseInt(b.slice(i, i + 2), 16));
  return `#${pa
    .map((v, i) =>
      Math.round(v + (pb[i] - v) * t)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

// Rough bold system-ui width, generous so text never spills.
const textWidth = (s, fs) => s.length * fs * 0.6;
const fitSize = (lines, maxW, max) => Math.min(max, ...lines.map((l) => Math.floor(maxW / (l.length * 0.58))));

const DROP = "M16 2S6 13.5 6 20a10 10 0 0 0 20 0C26 13.5 16 2 16 2Z";

/** Brand row, title, size pill and category word laid out in a white panel. */
function panel({ x, y, w, h, title, label, tint, word = true, brand = true }) {
  const cx = x + w / 2;
  let s = `<rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}" rx="12" fill="#fff"/>`;
  let top = y + 8;
  if (brand) {
    s += `<path d="${DROP}" fill="${TEAL}" transform="translate(${r(cx - 49)} ${r(y + 10)}) scale(.55)"/>`;
    s += `<text x="${r(cx - 29)}" y="${r(y + 25)}" font-size="13" font-weight="700" fill="${TEAL}">Snug &amp; Dry</text>`;
    top = y + 32;
  }
  const pillFs = Math.min(14, Math.floor((w - 36) / (label.length * 0.6)));
  const pillW = Math.min(w - 16, textWidth(label, pillFs) + 24);
  const pillH = pillFs + 14;
  const pillY = y + h - 10 - pillH;
  const fs = fitSize(title, w - 20, 24);
  const lh = fs * 1.12;
  const mid = (top + pillY) / 2;
  const first = mid - (lh * title.length) / 2 + fs * 0.82;
  s += `<text text-anchor="middle" font-size="${fs}" font-weight="800" fill="${INK}">`;
  title.forEach((line, i) => {
    s += `<tspan x="${r(cx)}" y="${r(first + i * lh)}">${esc(line)}</tspan>`;
  });
  s += "</text>";
  s += `<rect x="${r(cx - pillW / 2)}" y="${r(pillY)}" width="${r(pillW)}" height="${pillH}" rx="${pillH / 2}" fill="${tint.deep}"/>`;
  s += `<text x="${r(cx)}" y="${r(pillY + pillH / 2 + pillFs * 0.36)}" text-anchor="middle" font-size="${pillFs}" font-weight="700" fill="#fff">${esc(label)}</text>`;
  return { svg: s, word };
}

const wordText = (cx, y, tint) =>
  `<text x="${r(cx)}" y="${r(y)}" text-anchor="middle" font-size="12" font-weight="700" letter-spacing="2" fill="${tint.deep}">${tint.word}</text>`;

const shadow = (w) => `<ellipse cx="200" cy="${FLOOR + 2}" rx="${r(w / 2 + 34)}" ry="17" fill="url(#s)"/>`;
const gloss = (x, y, h) =>
  `<rect x="${r(x)}" y="${r(y)}" width="12" height="${r(h)}" rx="6" fill="#fff" opacity=".25"/>`;

function bag({ h, pack, tint, title, label }) {
  const w = 236;
  const x = 200 - w / 2;
  const y = FLOOR - h;
  const crimp = mix(pack, tint.deep, 0.22);
  let s = shadow(w);
  s += `<rect x="${x}" y="${r(y + 8)}" width="${w}" height="${r(h - 8)}" rx="22" fill="${pack}"/>`;
  s += `<rect x="${x + 6}" y="${r(y)}" width="${w - 12}" height="22" rx="5" fill="${crimp}"/>`;
  s += `<path d="M${x + 14} ${r(y + 11)}H${x + w - 14}" stroke="#fff" stroke-opacity=".5" stroke-width="2" stroke-dasharray="3 5"/>`;
  s += gloss(x + 8, y + 40, h - 80);
  s += panel({ x: x + 22, y: y + 34, w: w - 44, h: h - 62, title, label, tint }).svg;
  s += wordText(200, FLOOR - 10, tint);
  return s;
}

function box({ h, pack, tint, title, label }) {
  const w = 208;
  const d = 30; // depth, drawn up and to the right
  const dy = 18;
  const x = 200 - (w + d) / 2;
  const y = FLOOR - h;
  let s = shadow(w + d);
  s += `<path d="M${x} ${r(y)}L${x + d} ${r(y - dy)}H${x + w + d}L${x + w} ${r(y)}Z" fill="${mix(pack, "#ffffff", 0.4)}"/>`;
  s += `<path d="M${x + w} ${r(y)}L${x + w + d} ${r(y - dy)}V${FLOOR - dy}L${x + w} ${FLOOR}Z" fill="${mix(pack, tint.deep, 0.28)}"/>`;
  s += `<rect x="${x}" y="${r(y)}" width="${w}" height="${h}" fill="${pack}"/>`;
  s += gloss(x + 6, y + 20, h - 40);
  s += panel({ x: x + 22, y: y + 16, w: w - 44, h: h - 44, title, label, tint }).svg;
  s += wordText(x + w / 2, FLOOR - 10, tint);
  return s;
}

function pouch({ pack, tint, title, label }) {
  const w = 284;
  const h = 214;
  const x = 200 - w / 2;
  const y = FLOOR - h;
  let s = shadow(w);
  s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="38" fill="${pack}"/>`;
  s += `<rect x="${200 - 72}" y="${y + 14}" width="144" height="34" rx="17" fill="${mix(pack, "#ffffff", 0.45)}" stroke="${tint.deep}" stroke-opacity=".3" stroke-width="2"/>`;
  s += `<path d="${DROP}" fill="${TEAL}" transform="translate(${200 - 51} ${y + 22}) scale(.55)"/>`;
  s += `<text x="${200 - 31}" y="${y + 36}" font-size="13" font-weight="700" fill="${TEAL}">Snug &amp; Dry</text>`;
  s += panel({ x: x + 34, y: y + 58, w: w - 68, h: h - 86, title, label, tint, brand: false }).svg;
  s += wordText(200, FLOOR - 10, tint);
  return s;
}

function tube({ pack, tint, title, label }) {
  const y = FLOOR - 262;
  const cap = mix(pack, tint.deep, 0.35);
  let s = shadow(120);
  s += `<rect x="${200 - 100}" y="${y}" width="200" height="18" rx="3" fill="${mix(pack, tint.deep, 0.18)}"/>`;
  s += `<path d="M${200 - 94} ${y + 16}H${200 + 94}L${200 + 74} ${FLOOR - 52}Q${200 + 70} ${FLOOR - 40} ${200 + 44} ${FLOOR - 38}H${200 - 44}Q${200 - 70} ${FLOOR - 40} ${200 - 74} ${FLOOR - 52}Z" fill="${pack}"/>`;
  s += `<rect x="${200 - 44}" y="${FLOOR - 40}" width="88" height="40" rx="7" fill="${cap}"/>`;
  s += gloss(200 - 82, y + 30, 170);
  s += panel({ x: 200 - 70, y: y + 28, w: 140, h: 178, title, label, tint }).svg;
  return s;
}

function folded({ pack, tint, title, label }) {
  const w = 276;
  const h = 206;
  const x = 200 - w / 2;
  const y = FLOOR - h;
  const line = `stroke="${tint.deep}" stroke-opacity=".28" stroke-width="2"`;
  let s = shadow(w);
  s += `<rect x="${x + 10}" y="${y - 12}" width="${w - 20}" height="${h}" rx="20" fill="${mix(pack, tint.deep, 0.2)}"/>`;
  s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="20" fill="${pack}"/>`;
  for (const f of [h / 3, (2 * h) / 3]) {
    s += `<path d="M${x + 12} ${r(y + f)}H${200 - 90}M${200 + 90} ${r(y + f)}H${x + w - 12}" ${line}/>`;
  }
  s += panel({ x: 200 - 80, y: y + 12, w: 160, h: h - 40, title, label, tint }).svg;
  s += wordText(200, FLOOR - 10, tint);
  return s;
}

const SHAPES = { bag, box, pouch, tube, folded };

function render({ cat, shape, title, label }, v = null) {
  const tint = TINTS[cat];
  // Per-size shots: taller pack and a deeper shade for each larger size.
  const pack = v ? mix(tint.pack, tint.deep, 0.06 + v.index * 0.12) : tint.pack;
  const h = v ? 224 + v.index * 22 : 250;
  const body = SHAPES[shape]({ h, pack, tint, title, label: v ? v.label : label });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" font-family="${FONT}">` +
    `<radialGradient id="s"><stop offset="0" stop-color="#000" stop-opacity=".22"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>` +
    `<rect width="400" height="400" fill="${tint.bg}"/>${body}</svg>\n`
  );
}

mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) if (f.endsWith(".svg")) unlinkSync(join(outDir, f));

let count = 0;
let largest = 0;
const write = (name, svg) => {
  writeFileSync(join(outDir, `${name}.svg`), svg);
  largest = Math.max(largest, Buffer.byteLength(svg));
  count++;
};
for (const p of PRODUCTS) {
  write(p.file, render(p));
  for (const [index, v] of (p.variants ?? []).entries()) write(`${p.file}-${v.suffix}`, render(p, { ...v, index }));
}
if (largest > 3072) throw new Error(`an SVG is ${largest} bytes (limit 3 KB)`);
console.log(`wrote ${count} SVGs to ${outDir} (largest ${largest} bytes)`);
