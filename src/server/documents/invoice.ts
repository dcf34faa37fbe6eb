import { formatRand } from "#domain/money.js";
import { formatDocumentDate } from "#domain/sa-format.js";
import { formatVatRate } from "#domain/vat.js";
import {
  block,
  type CopyMark,
  facts,
  footer,
  INK,
  PAGE,
  type Pdf,
  renderPdf,
  shopHeader,
  table,
  totals,
} from "./pdf.js";
import { customerLines, type DocumentLine, type InvoiceData, paidForLine } from "./types.js";
import { vatSummary } from "./vat-summary.js";

/**
 * The invoice of a paid order. With the shop's VAT number it is a full tax invoice as SARS requires
 * (VAT Act s20(4)): the words "Tax Invoice", the shop's name, address and VAT number, the invoice
 * number and date, the buyer's name, address and VAT number, each line's description, quantity,
 * price and VAT rate (zero-rated lines say so), the VAT per rate with the value excluding it, and
 * the total. Without one it is an "Invoice" with no VAT at all.
 */
export function invoicePdf(data: InvoiceData, { copy = null }: { copy?: CopyMark | null } = {}): Promise<Buffer> {
  return data.shop.vatNumber !== null ? taxInvoicePdf(data, copy) : plainInvoicePdf(data, copy);
}

function closing(doc: Pdf, data: InvoiceData, text: string, y: number) {
  doc
    .font("regular")
    .fontSize(9)
    .fillColor(INK.muted)
    .text(text, PAGE.left, y + 16, { width: PAGE.right - PAGE.left });
  if (data.correction) {
    doc.text(
      `This corrected invoice replaces ${data.correction.replaces} (${data.correction.reason}); the date of supply is unchanged.`,
      PAGE.left,
      doc.y + 6,
      { width: PAGE.right - PAGE.left },
    );
  }
  if (data.policies.length > 0) {
    doc.text("Sold under (each version stays readable at its address):", PAGE.left, doc.y + 10, {
      width: PAGE.right - PAGE.left,
    });
    for (const policy of data.policies) {
      doc.text(`${policy.label}: `, PAGE.left, doc.y + 2, { continued: true, width: PAGE.right - PAGE.left });
      doc.fillColor("#115e59").text(policy.url, { link: policy.url, underline: true }).fillColor(INK.muted);
    }
  }
  footer(doc, `${data.shop.name} · ${data.shop.email} · ${data.shop.phone}`);
}

/**
 * "Nappies", "Nappies (less R10.00, promo SAVE10)" or "Nappies (less R7.50, multi-buy)": a
 * discounted line says what it was sold for.
 */
function described(line: DocumentLine, name: string, data: InvoiceData): string {
  const off = [
    (line.multibuyDiscountCents ?? 0) > 0 ? `less ${formatRand(line.multibuyDiscountCents ?? 0)}, multi-buy` : "",
    (line.discountCents ?? 0) > 0 ? `less ${formatRand(line.discountCents ?? 0)}, promo ${data.promoCode ?? ""}` : "",
  ].filter(Boolean);
  return off.length > 0 ? `${name} (${off.join("; ")})` : name;
}

/** Subtotal, the multi-buy saving and the promo code's discount when there are, then delivery (waived by a free-delivery code). */
function subtotalRows(data: InvoiceData): [string, string][] {
  const rows: [string, string][] = [["Subtotal", formatRand(data.subtotalCents)]];
  const multibuy = data.multibuyDiscountCents ?? 0;
  if (multibuy > 0) rows.push(["Multi-buy saving", `-${formatRand(multibuy)}`]);
  if ((data.discountCents ?? 0) > 0) rows.push([`Promo ${data.promoCode}`, `-${formatRand(data.discountCents ?? 0)}`]);
  if ((data.deliveryDiscountCents ?? 0) > 0) rows.push([`Delivery (free with ${data.promoCode})`, formatRand(0)]);
  else rows.push(["Delivery", formatRand(data.deliveryFeeCents)]);
  return rows;
}

function plainInvoicePdf(data: InvoiceData, copy: CopyMark | null): Promise<Buffer> {
  const meta = { title: `Invoice ${data.number}`, author: data.shop.name, created: data.issuedAt, copy };
  return renderPdf(meta, (doc) => {
    const at = header(doc, data, "Invoice");
    const rows = data.lines.map((line) => [
      described(line, line.name, data),
      line.size,
      String(line.quantity),
      formatRand(line.unitPriceCents),
      formatRand(paidForLine(line)),
    ]);
    rows.push(["Delivery", "", "1", formatRand(data.deliveryFeeCents), formatRand(data.deliveryFeeCents)]);
    let y = table(
      doc,
      [
        { label: "Description", width: 195 },
        { label: "Size", width: 80 },
        { label: "Qty", width: 40, align: "right" },
        { label: "Unit price", width: 90, align: "right" },
        { label: "Amount", width: 90, align: "right" },
      ],
      rows,
      at,
    );
    y = totals(doc, [...subtotalRows(data), ["Total", formatRand(data.totalCents)]], y + 6);
    closing(doc, data, "Paid in full through PayFast.", y);
  });
}

function taxInvoicePdf(data: InvoiceData, copy: CopyMark | null): Promise<Buffer> {
  const title = "Tax Invoice";
  const meta = { title: `${title} ${data.number}`, author: data.shop.name, created: data.issuedAt, copy };
  return renderPdf(meta, (doc) => {
    const at = header(doc, data, title);
    const rows = data.lines.map((line) => [
      described(line, line.vatClass === "zero" ? `${line.name} (zero-rated)` : line.name, data),
      line.size,
      String(line.quantity),
      formatRand(line.unitPriceCents),
      formatVatRate(line.vatRateBp),
      formatRand(paidForLine(line)),
    ]);
    rows.push([
      "Delivery",
      "",
      "1",
      formatRand(data.deliveryFeeCents),
      data.deliveryFeeCents > 0 ? formatVatRate(data.deliveryVatRateBp) : "",
      formatRand(data.deliveryFeeCents),
    ]);
    let y = table(
      doc,
      [
        { label: "Description", width: 180 },
        { label: "Size", width: 75 },
        { label: "Qty", width: 35, align: "right" },
        { label: "Unit price", width: 80, align: "right" },
        { label: "VAT", width: 45, align: "right" },
        { label: "Amount", width: 80, align: "right" },
      ],
      rows,
      at,
    );
    y = vatSummary(doc, "VAT per rate", data.vat.byRate, y + 10);
    y = totals(
      doc,
      [
        ...subtotalRows(data),
        ["VAT", formatRand(data.vat.vatCents)],
        ["Total (VAT inclusive)", formatRand(data.totalCents)],
      ],
      y + 6,
    );
    closing(
      doc,
      data,
      "Prices include VAT at each line's rate; sanitary pads and pantyliners are zero-rated. Paid in full through PayFast.",
      y,
    );
  });
}

/** The shop, the buyer and the invoice's facts; answers the y where the lines start. */
function header(doc: Pdf, data: InvoiceData, title: string): number {
  const top = shopHeader(doc, data.shop, title);
  const left = block(doc, "Bill to", customerLines(data.customer), PAGE.left, top, 250);
  const right = facts(
    doc,
    [
      ["Invoice number", data.number],
      ["Invoice date", formatDocumentDate(data.issuedAt)],
      ...(data.correction
        ? ([
            ["Replaces", data.correction.replaces],
            ["Corrected on", formatDocumentDate(data.correction.correctedAt)],
          ] as const)
        : []),
      ["Order", `#${data.orderNumber}`],
    ],
    330,
    top,
    PAGE.right - 330,
  );
  return Math.max(left, right) + 24;
}
