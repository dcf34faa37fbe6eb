import { useInfiniteQuery } from "@tanstack/react-query";
import type { EmailPage, EmailSummary } from "#domain/schemas/emails.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

const PAGE_SIZE = 50;

export function getEmailPage(cursor: string | null) {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) query.set("cursor", cursor);
  return apiGet<EmailPage>(`/api/admin/emails?${query}`);
}

const waiting = (email: EmailSummary) => email.status === "queued" || email.status === "retrying";

/**
 * GET /api/admin/emails: the outbox, newest first, 50 at a time (Load more asks for the next page
 * by cursor). Fetched afresh when the tab opens, and every 10 seconds while a shown message is
 * still on its way.
 */
export function useAdminEmails() {
  return useInfiniteQuery({
    queryKey: adminKeys.emailPages(),
    queryFn: ({ pageParam }) => getEmailPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.emails),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.emails.some(waiting)) ? 10_000 : false),
  });
}
