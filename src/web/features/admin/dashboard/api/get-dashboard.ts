import { useQuery } from "@tanstack/react-query";
import type { Dashboard } from "../../../../../domain/schemas/dashboard";
import { ADMIN_DASHBOARD_KEY } from "../../shared";

/** GET /api/admin/dashboard: figures, charts' data, low stock and attention, computed by the server; fresh each time the tab opens. */
export function useAdminDashboard() {
  return useQuery<Dashboard>({ queryKey: ADMIN_DASHBOARD_KEY, staleTime: 0 });
}
