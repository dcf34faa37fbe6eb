import { useInfiniteQuery } from "@tanstack/react-query";
import type { AuditPage } from "#domain/schemas/audit.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function getAuditPage(q: string, cursor: string | null) {
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (cursor) query.set("cursor", cursor);
  return apiGet<AuditPage>(`/api/admin/audit?${query}`);
}

/** GET /api/admin/audit?q=&cursor=: the audit trail newest first, 50 at a time, searched by actor, action, subject or address. */
export function useAuditTrail(q: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.auditPages(q),
    queryFn: ({ pageParam }) => getAuditPage(q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.entries),
    staleTime: 0,
  });
}
