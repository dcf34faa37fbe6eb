import { formatRand } from "#domain/money.js";
import { formatVatRate, VAT_CLASS_LABELS, type VatRateTotal } from "#domain/vat.js";
import { INK, PAGE, type Pdf, table } from "./pdf.js";

/** "Standard-rated 15%", "Zero-rated 0%". */
export const rateLabel = (rate: Pick<VatRateTotal, "vatClass" | "rateBp">) =>
  `${VAT_CLASS_LABELS[rate.vatClass]} ${formatVatRate(rate.rateBp)}`;

/**
 * The VAT per rate of a tax document (VAT Act s20(4): with mixed rates the VAT is shown per rate):
 * each rate's value excluding VAT, its VAT and its total; answers the y below.
 */
export function vatSummary(doc: Pdf, heading: string, byRate: readonly VatRateTotal[], y: number): number {
  doc
    .font("bold")
    .fontSize(8)
    .fillColor(INK.muted)
    .text(heading.toUpperCase(), PAGE.left, y, { characterSpacing: 0.6 });
  return table(
    doc,
    [
      { label: "VAT rate", width: 195 },
      { label: "Excl. VAT", width: 100, align: "right" },
      { label: "VAT", width: 100, align: "right" },
      { label: "Total", width: 100, align: "right" },
    ],
    byRate.map((rate) => [
      rateLabel(rate),
      formatRand(rate.exclCents),
      formatRand(rate.vatCents),
      formatRand(rate.totalCents),
    ]),
    doc.y + 6,
  );
}
