import { formatRand } from "../../domain/money.js";
import { includedVatCents, VAT_RATE_PERCENT } from "../../domain/pricing.js";
import { block, facts, footer, formatSaDate, PAGE, renderPdf, shopHeader, table, totals } from "./pdf.js";
import { type CreditNoteData, customerLines } from "./types.js";

/**
 * The credit note of a refund (VAT Act s21(3)): the words "Credit Note", the shop's and the buyer's
 * names, addresses and VAT numbers, its own number and date, the invoice it credits, the amount
 * credited, the VAT that amount includes (with the shop's VAT number), and why.
 */
export function creditNotePdf(data: CreditNoteData): Promise<Buffer> {
  const tax = data.shop.vatNumber !== null;
  const title = tax ? "Tax Credit Note" : "Credit Note";
  return renderPdf({ title: `${title} ${data.number}`, author: data.shop.name, created: data.issuedAt }, (doc) => {
    const top = shopHeader(doc, data.shop, title);
    const left = block(doc, "Credit to", customerLines(data.customer), PAGE.left, top, 250);
    const right = facts(
      doc,
      [
        ["Credit note number", data.number],
        ["Date", formatSaDate(data.issuedAt)],
        ["Credits invoice", data.invoiceNumber],
        ["Order", `#${data.orderNumber}`],
      ],
      330,
      top,
      PAGE.right - 330,
    );
    let y = table(
      doc,
      [
        { label: "Description", width: 405 },
        { label: "Amount", width: 90, align: "right" },
      ],
      [[`Refund: ${data.reason}${data.restocked ? " (goods returned)" : ""}`, formatRand(data.amountCents)]],
      Math.max(left, right) + 24,
    );
    const sums: [string, string][] = [];
    if (tax) sums.push([`VAT included at ${VAT_RATE_PERCENT}%`, formatRand(includedVatCents(data.amountCents))]);
    sums.push([tax ? "Total credited (VAT inclusive)" : "Total credited", formatRand(data.amountCents)]);
    y = totals(doc, sums, y + 6);
    doc
      .font("regular")
      .fontSize(9)
      .fillColor("#57534e")
      .text("Refunded through PayFast to the card or account that paid.", PAGE.left, y + 16, {
        width: PAGE.right - PAGE.left,
      });
    footer(doc, `${data.shop.name} · ${data.shop.email} · ${data.shop.phone}`);
  });
}
