import { useQuery } from "@tanstack/react-query";
import type { User } from "../../../../domain/schemas/account";
import { ADMIN_USERS_KEY } from "./keys";

/** GET /api/admin/users: requested as docs/product.md §7 says; the tab does not show it yet. */
export function useAdminUsers() {
  return useQuery<User[]>({ queryKey: ADMIN_USERS_KEY });
}
