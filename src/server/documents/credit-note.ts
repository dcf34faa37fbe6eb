import { formatRand } from "#domain/money.js";
import { formatDocumentDate } from "#domain/sa-format.js";
import { formatVatRate } from "#domain/vat.js";
import { block, type CopyMark, facts, footer, INK, PAGE, renderPdf, shopHeader, table, totals } from "./pdf.js";
import { type CreditNoteData, customerLines } from "./types.js";
import { vatSummary } from "./vat-summary.js";

/**
 * The credit note of a refund (VAT Act s21(3)): the words "Credit Note", the shop's and the buyer's
 * names, addresses and VAT numbers, its own number and date, the invoice it credits, the amount
 * credited and why; with the shop's VAT number also the VAT it reverses per rate of that invoice.
 */
export function creditNotePdf(data: CreditNoteData, { copy = null }: { copy?: CopyMark | null } = {}): Promise<Buffer> {
  const tax = data.shop.vatNumber !== null;
  const title = tax ? "Tax Credit Note" : "Credit Note";
  const meta = { title: `${title} ${data.number}`, author: data.shop.name, created: data.issuedAt, copy };
  return renderPdf(meta, (doc) => {
    const top = shopHeader(doc, data.shop, title);
    const left = block(doc, "Credit to", customerLines(data.customer), PAGE.left, top, 250);
    const right = facts(
      doc,
      [
        ["Credit note number", data.number],
        ["Date", formatDocumentDate(data.issuedAt)],
        ["Credits invoice", data.invoiceNumber],
        ["Order", `#${data.orderNumber}`],
      ],
      330,
      top,
      PAGE.right - 330,
    );
    const refundRow = `Refund: ${data.reason}${data.restocked ? " (goods returned)" : ""}`;
    // Lines chosen (docs/decisions/036): each credited line with its units and rate, then the delivery fee's part.
    const rows: string[][] = data.lines
      ? [
          [refundRow, ""],
          ...data.lines.map((line) => [
            `${line.quantity > 0 ? `${line.quantity} x ` : ""}${line.name} (${line.size})${tax ? `, ${formatVatRate(line.vatRateBp)}` : ""}`,
            formatRand(line.amountCents),
          ]),
          ...((data.deliveryCents ?? 0) > 0
            ? [
                [
                  `Delivery${tax ? `, ${formatVatRate(data.vat.lines.at(-1)?.rateBp ?? 0)}` : ""}`,
                  formatRand(data.deliveryCents ?? 0),
                ],
              ]
            : []),
        ]
      : [[refundRow, formatRand(data.amountCents)]];
    let y = table(
      doc,
      [
        { label: "Description", width: 405 },
        { label: "Amount", width: 90, align: "right" },
      ],
      rows,
      Math.max(left, right) + 24,
    );
    const sums: [string, string][] = [];
    if (tax) {
      y = vatSummary(doc, `VAT per rate of ${data.invoiceNumber}`, data.vat.byRate, y + 10);
      sums.push(["VAT credited", formatRand(data.vat.vatCents)]);
    }
    sums.push([tax ? "Total credited (VAT inclusive)" : "Total credited", formatRand(data.amountCents)]);
    y = totals(doc, sums, y + 6);
    doc
      .font("regular")
      .fontSize(9)
      .fillColor(INK.muted)
      .text(
        tax
          ? `Credited at the VAT rates of ${data.invoiceNumber}, ${data.lines ? "line by line" : "in proportion to its lines"}. Refunded through PayFast to the card or account that paid.`
          : "Refunded through PayFast to the card or account that paid.",
        PAGE.left,
        y + 16,
        { width: PAGE.right - PAGE.left },
      );
    footer(doc, `${data.shop.name} · ${data.shop.email} · ${data.shop.phone}`);
  });
}
