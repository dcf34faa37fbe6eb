import { useQuery } from "@tanstack/react-query";
import type { Dashboard } from "#domain/schemas/dashboard.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/** GET /api/admin/dashboard: figures, charts' data, low stock and attention, computed by the server; fresh each time the tab opens. */
export function useAdminDashboard() {
  return useQuery({
    queryKey: adminKeys.dashboard(),
    queryFn: () => apiGet<Dashboard>("/api/admin/dashboard"),
    staleTime: 0,
  });
}
