import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ActiveSession } from "#domain/schemas/sessions.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** GET /api/auth/sessions: where this account is signed in, most recently used first. */
export function useSessions() {
  return useQuery({ queryKey: accountKeys.sessions(), queryFn: () => apiGet<ActiveSession[]>("/api/auth/sessions") });
}

/** DELETE /api/auth/sessions/{id}: signs that device out (this one too, when it is named). */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>("DELETE", `/api/auth/sessions/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

/** POST /api/auth/sessions/end-others: signs out every device but this one. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ ended: number }>("POST", "/api/auth/sessions/end-others", {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
