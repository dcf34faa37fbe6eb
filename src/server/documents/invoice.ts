import { formatRand } from "../../domain/money.js";
import { includedVatCents, VAT_RATE_PERCENT } from "../../domain/pricing.js";
import { block, facts, footer, formatSaDate, PAGE, renderPdf, shopHeader, table, totals } from "./pdf.js";
import { customerLines, type InvoiceData } from "./types.js";

/**
 * The invoice of a paid order. With the shop's VAT number it is a full tax invoice as SARS requires
 * (VAT Act s20(4)): the words "Tax Invoice", the shop's name, address and VAT number, the invoice
 * number and date, the buyer's name, address and VAT number, each line's description, quantity and
 * price, the total, and the VAT it includes at 15%. Without one it is an "Invoice" with no VAT line.
 */
export function invoicePdf(data: InvoiceData): Promise<Buffer> {
  const tax = data.shop.vatNumber !== null;
  const title = tax ? "Tax Invoice" : "Invoice";
  return renderPdf({ title: `${title} ${data.number}`, author: data.shop.name, created: data.issuedAt }, (doc) => {
    const top = shopHeader(doc, data.shop, title);
    const left = block(doc, "Bill to", customerLines(data.customer), PAGE.left, top, 250);
    const right = facts(
      doc,
      [
        ["Invoice number", data.number],
        ["Invoice date", formatSaDate(data.issuedAt)],
        ["Order", `#${data.orderNumber}`],
      ],
      330,
      top,
      PAGE.right - 330,
    );
    const rows = data.lines.map((line) => [
      line.name,
      line.size,
      String(line.quantity),
      formatRand(line.unitPriceCents),
      formatRand(line.unitPriceCents * line.quantity),
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
      Math.max(left, right) + 24,
    );
    const sums: [string, string][] = [
      ["Subtotal", formatRand(data.subtotalCents)],
      ["Delivery", formatRand(data.deliveryFeeCents)],
    ];
    if (tax) sums.push([`VAT included at ${VAT_RATE_PERCENT}%`, formatRand(includedVatCents(data.totalCents))]);
    sums.push([tax ? "Total (VAT inclusive)" : "Total", formatRand(data.totalCents)]);
    y = totals(doc, sums, y + 6);
    doc
      .font("regular")
      .fontSize(9)
      .fillColor("#57534e")
      .text(
        tax
          ? `All prices include VAT at ${VAT_RATE_PERCENT}%. Paid in full through PayFast.`
          : "Paid in full through PayFast.",
        PAGE.left,
        y + 16,
        { width: PAGE.right - PAGE.left },
      );
    if (data.policies.length > 0) {
      doc.text("Sold under (each version stays readable at its address):", PAGE.left, doc.y + 10, {
        width: PAGE.right - PAGE.left,
      });
      for (const policy of data.policies) {
        doc.text(`${policy.label}: `, PAGE.left, doc.y + 2, { continued: true, width: PAGE.right - PAGE.left });
        doc.fillColor("#115e59").text(policy.url, { link: policy.url, underline: true }).fillColor("#57534e");
      }
    }
    footer(doc, `${data.shop.name} · ${data.shop.email} · ${data.shop.phone}`);
  });
}
