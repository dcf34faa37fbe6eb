import { useInfiniteQuery } from "@tanstack/react-query";
import type { CustomerPage } from "#domain/schemas/customers.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function getCustomerPage(q: string, cursor: string | null) {
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (cursor) query.set("cursor", cursor);
  return apiGet<CustomerPage>(`/api/admin/users?${query}`);
}

/** GET /api/admin/users?q=&cursor=: the customers newest first, 50 at a time, searched by name, username, e-mail or phone. */
export function useAdminUsers(q: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.userPages(q),
    queryFn: ({ pageParam }) => getCustomerPage(q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.users),
    staleTime: 0,
  });
}
