import { type OrderFilters, orderFilterParams } from "./get-orders";

/**
 * GET /api/admin/orders.csv: the range's orders as a spreadsheet, downloaded by the browser itself
 * (a link, so the file streams to disk rather than through the page's memory).
 */
export function orderExportUrl(range: Pick<OrderFilters, "from" | "to">): string {
  const params = orderFilterParams(range);
  return `/api/admin/orders.csv${params.size > 0 ? `?${params}` : ""}`;
}
