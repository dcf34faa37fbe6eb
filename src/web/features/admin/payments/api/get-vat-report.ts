import { useQuery } from "@tanstack/react-query";
import type { VatReport } from "#domain/schemas/vat-report.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export interface VatPeriodChoice {
  /** The period's first month, YYYY-MM. */
  from: string;
  months: 1 | 2;
}

const params = ({ from, months }: VatPeriodChoice) => new URLSearchParams({ from, months: String(months) });

/** GET /api/admin/vat-report: a month's or a two-month VAT period's figures per rate, worked out by the server. */
export function useVatReport(period: VatPeriodChoice) {
  return useQuery({
    queryKey: adminKeys.vatReport(period),
    queryFn: () => apiGet<VatReport>(`/api/admin/vat-report?${params(period)}`),
    staleTime: 0,
  });
}

/** GET /api/admin/vat-report.csv: the same period with every invoice and credit note, downloaded by the browser. */
export function vatReportCsvUrl(period: VatPeriodChoice): string {
  return `/api/admin/vat-report.csv?${params(period)}`;
}
