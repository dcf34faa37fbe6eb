import { useQuery } from "@tanstack/react-query";
import type { EmailMessage } from "../../../../../domain/schemas/emails";
import { ADMIN_EMAILS_KEY } from "../../shared";

/** Where the admin frames a message's HTML (served with its own sandboxing CSP). */
export const emailHtmlUrl = (id: number) => `/api/admin/emails/${id}/html`;

/** GET /api/admin/emails/{id}: one message as the customer sees it, its HTML and its plain text. */
export function useAdminEmail(id: number | null) {
  return useQuery<EmailMessage>({
    queryKey: [...ADMIN_EMAILS_KEY, id],
    enabled: id !== null,
    staleTime: 0,
  });
}
