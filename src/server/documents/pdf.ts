import { createRequire } from "node:module";
import type {} from "pdfkit";
import { formatDocumentDate } from "#domain/sa-format.js";

const require = createRequire(import.meta.url);
/**
 * DejaVu Sans (its licence: node_modules/dejavu-fonts-ttf/LICENSE), embedded as a subset in every
 * document: pdfkit's standard 14 fonts are not embedded, and a reader without them substitutes.
 */
const FONT_REGULAR = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
const FONT_BOLD = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

/** The shop's colours (DESIGN.md), as the e-mails write them out. */
export const INK = { brand: "#0f766e", text: "#1c1917", muted: "#57534e", rule: "#e9dfcf", tint: "#f0fdfa" };

export type Pdf = PDFKit.PDFDocument;

/** The shop as its documents show it (config: SHOP_*). */
export interface ShopDetails {
  /** The trading name. */
  name: string;
  /** The full registered name and legal status ("Snug & Dry Demo Trading (Pty) Ltd"), printed beside it (CPA s26(3)). */
  legalName: string;
  address: string;
  phone: string;
  email: string;
  /** Set: the shop is VAT-registered and its invoices are tax invoices. */
  vatNumber: string | null;
}

export const PAGE = { left: 50, right: 545, bottom: 780 } as const;

/**
 * A download of an issued document after its first (docs/decisions/035): every page says it is a
 * copy (VAT Act s20(1) proviso (ii)), and since when the document has been out.
 */
export interface CopyMark {
  firstDownloadedAt: Date;
}

/** Renders a document into a PDF buffer: A4, DejaVu Sans embedded, text selectable, the title in the reader's bar. */
export async function renderPdf(
  meta: { title: string; author: string; created: Date; copy?: CopyMark | null },
  draw: (doc: Pdf) => void,
): Promise<Buffer> {
  // pdfkit takes about 28 MB of memory once loaded: loaded with the first document, not at start.
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 50, bottom: 50, left: PAGE.left, right: 595.28 - PAGE.right },
    font: FONT_REGULAR,
    lang: "en-ZA",
    displayTitle: true,
    bufferPages: meta.copy != null,
    info: {
      Title: meta.copy ? `${meta.title} (Copy)` : meta.title,
      Author: meta.author,
      Creator: meta.author,
      CreationDate: meta.created,
    },
  });
  doc.registerFont("regular", FONT_REGULAR);
  doc.registerFont("bold", FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("regular").fillColor(INK.text);
  draw(doc);
  if (meta.copy) markCopy(doc, meta.title, meta.copy);
  doc.end();
  return ended;
}

/** "COPY" above the header of every page, with the document and when it was first downloaded. */
function markCopy(doc: Pdf, title: string, copy: CopyMark): void {
  const pages = doc.bufferedPageRange();
  for (let page = pages.start; page < pages.start + pages.count; page++) {
    doc.switchToPage(page);
    doc
      .font("bold")
      .fontSize(9)
      .fillColor("#b91c1c")
      .text(
        `Copy of ${title} as issued; first downloaded on ${formatDocumentDate(copy.firstDownloadedAt)}.`,
        PAGE.left,
        24,
        {
          width: PAGE.right - PAGE.left,
        },
      );
  }
}

/** The shop's name and details on the left, the document's title on the right; answers the y below. */
export function shopHeader(doc: Pdf, shop: ShopDetails, title: string): number {
  const top = 50;
  doc.font("bold").fontSize(18).fillColor(INK.brand).text(shop.name, PAGE.left, top, { width: 300 });
  if (shop.legalName && shop.legalName !== shop.name) {
    doc
      .font("bold")
      .fontSize(10)
      .fillColor(INK.text)
      .text(shop.legalName, PAGE.left, doc.y + 2, { width: 300 });
  }
  doc.font("regular").fontSize(9).fillColor(INK.muted);
  const lines = [shop.address, `${shop.phone} · ${shop.email}`];
  if (shop.vatNumber) lines.push(`VAT number: ${shop.vatNumber}`);
  doc.text(lines.join("\n"), PAGE.left, doc.y + 4, { width: 300, lineGap: 2 });
  const below = doc.y;
  doc
    .font("bold")
    .fontSize(20)
    .fillColor(INK.text)
    .text(title, 300, top, { width: PAGE.right - 300, align: "right" });
  const y = Math.max(below, doc.y) + 16;
  rule(doc, y);
  return y + 16;
}

export function rule(doc: Pdf, y: number, colour: string = INK.rule): void {
  doc.moveTo(PAGE.left, y).lineTo(PAGE.right, y).lineWidth(0.75).strokeColor(colour).stroke();
}

/** Labelled facts in two columns ("Invoice number", "INV-000001"), at x; answers the y below. */
export function facts(
  doc: Pdf,
  rows: readonly (readonly [string, string])[],
  x: number,
  y: number,
  width: number,
): number {
  let at = y;
  for (const [label, value] of rows) {
    doc
      .font("regular")
      .fontSize(9)
      .fillColor(INK.muted)
      .text(label, x, at, { width: width * 0.45 });
    doc
      .font("bold")
      .fontSize(9)
      .fillColor(INK.text)
      .text(value, x + width * 0.45, at, { width: width * 0.55, align: "right" });
    at = doc.y + 4;
  }
  return at;
}

/** A heading and lines of text (a name and address), at x; answers the y below. */
export function block(
  doc: Pdf,
  heading: string,
  lines: readonly string[],
  x: number,
  y: number,
  width: number,
): number {
  doc.font("bold").fontSize(8).fillColor(INK.muted).text(heading.toUpperCase(), x, y, { width, characterSpacing: 0.6 });
  doc
    .font("regular")
    .fontSize(10)
    .fillColor(INK.text)
    .text(lines.filter(Boolean).join("\n"), x, doc.y + 4, { width, lineGap: 2 });
  return doc.y;
}

export interface Column {
  label: string;
  width: number;
  align?: "left" | "right";
}

/**
 * A table of rows under a header row, starting a new page (with the header again) when the page is
 * full; answers the y below it.
 */
export function table(doc: Pdf, columns: readonly Column[], rows: readonly (readonly string[])[], y: number): number {
  const header = (at: number) => {
    let x = PAGE.left;
    doc.rect(PAGE.left, at - 4, PAGE.right - PAGE.left, 20).fill(INK.tint);
    doc.font("bold").fontSize(9).fillColor(INK.text);
    for (const column of columns) {
      doc.text(column.label, x + 4, at + 1, { width: column.width - 8, align: column.align ?? "left" });
      x += column.width;
    }
    return at + 22;
  };
  let at = header(y);
  doc.font("regular").fontSize(10);
  for (const row of rows) {
    const height = Math.max(
      ...columns.map((column, index) => doc.heightOfString(row[index] ?? "", { width: column.width - 8 })),
    );
    if (at + height > PAGE.bottom - 40) {
      doc.addPage();
      at = header(50);
    }
    let x = PAGE.left;
    doc.font("regular").fontSize(10).fillColor(INK.text);
    columns.forEach((column, index) => {
      doc.text(row[index] ?? "", x + 4, at, { width: column.width - 8, align: column.align ?? "left" });
      x += column.width;
    });
    at += height + 6;
    rule(doc, at - 3);
  }
  return at + 4;
}

/** Totals right-aligned under a table: label and amount, the last one in bold; answers the y below. */
export function totals(doc: Pdf, rows: readonly (readonly [string, string])[], y: number, boldLast = true): number {
  let at = y;
  rows.forEach(([label, amount], index) => {
    const strong = boldLast && index === rows.length - 1;
    doc
      .font(strong ? "bold" : "regular")
      .fontSize(strong ? 11 : 10)
      .fillColor(INK.text);
    doc.text(label, 230, at, { width: 220, align: "right" });
    doc.text(amount, 450, at, { width: PAGE.right - 450, align: "right" });
    at = doc.y + 5;
  });
  return at;
}

/** A closing line at the bottom of the last page. */
export function footer(doc: Pdf, text: string): void {
  doc
    .font("regular")
    .fontSize(8)
    .fillColor(INK.muted)
    .text(text, PAGE.left, PAGE.bottom, {
      width: PAGE.right - PAGE.left,
      align: "center",
    });
}
