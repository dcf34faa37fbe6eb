import { useQuery } from "@tanstack/react-query";
import type { EmailMessage } from "#domain/schemas/emails.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/** Where the admin frames a message's HTML (served with its own sandboxing CSP). */
export const emailHtmlUrl = (id: number) => `/api/admin/emails/${id}/html`;

/** GET /api/admin/emails/{id}: one message as the customer sees it, its HTML and its plain text. */
export function useAdminEmail(id: number | null) {
  return useQuery({
    queryKey: adminKeys.email(id),
    queryFn: () => apiGet<EmailMessage>(`/api/admin/emails/${id}`),
    enabled: id !== null,
    staleTime: 0,
  });
}
