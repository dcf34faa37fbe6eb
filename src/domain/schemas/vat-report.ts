import { z } from "zod";
import { VAT_PERIOD_MONTHS_MAX } from "../limits.js";
import { VAT_CLASSES } from "../vat.js";

/** The first month the report answers: the standard rate's table starts in April 2018. */
export const VAT_REPORT_FIRST_MONTH = "2018-04";

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** GET /api/admin/vat-report and /api/admin/vat-report.csv: the period's first month and its length. */
export const vatReportQuery = z.object({
  from: z
    .string({ message: "from must be a month, YYYY-MM" })
    .regex(MONTH, "from must be a month, YYYY-MM")
    .refine((month) => month >= VAT_REPORT_FIRST_MONTH && month <= "2999-12", {
      message: `from must be ${VAT_REPORT_FIRST_MONTH} or later`,
    }),
  months: z.coerce
    .number({ message: "months must be 1 or 2" })
    .int("months must be 1 or 2")
    .min(1, "months must be 1 or 2")
    .max(VAT_PERIOD_MONTHS_MAX, "months must be 1 or 2")
    .default(1),
});
export type VatReportQuery = z.input<typeof vatReportQuery>;

/** The period's first and last day (YYYY-MM-DD, South African days, both included). */
export function vatPeriod(from: string, months: number): { first: string; last: string; next: string } {
  const [year = 0, month = 1] = from.split("-").map(Number);
  const day = (y: number, m: number) =>
    `${String(y + Math.floor((m - 1) / 12)).padStart(4, "0")}-${String(((m - 1) % 12) + 1).padStart(2, "0")}-01`;
  const next = day(year, month + months);
  const lastDate = new Date(`${next}T00:00:00Z`);
  lastDate.setUTCDate(0);
  return { first: day(year, month), last: lastDate.toISOString().slice(0, 10), next };
}

const rateRow = z.object({
  vatClass: z.enum(VAT_CLASSES),
  rateBp: z.number().int(),
  /** "15%". */
  rate: z.string(),
  exclCents: z.number().int(),
  vatCents: z.number().int(),
  totalCents: z.number().int(),
});
export type VatReportRate = z.infer<typeof rateRow>;

/**
 * The VAT of a period: the tax invoices dated in it (sales), the credit notes dated in it, and net
 * figures per rate (sales less credit notes), the figures of a VAT201 return.
 */
export const vatReport = z.object({
  /** First and last day, South African days. */
  first: z.string(),
  last: z.string(),
  invoices: z.number().int(),
  creditNotes: z.number().int(),
  sales: z.array(rateRow),
  credits: z.array(rateRow),
  net: z.array(rateRow),
});
export type VatReport = z.infer<typeof vatReport>;
