import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ChildProfile, ChildProfileInput } from "#domain/schemas/size-fit.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { accountKeys } from "./keys";

const childrenUrl = (userId: string) => `/api/users/${userId}/children`;

/** GET /api/users/{id}/children: the children kept for the size finder (none for a guest). */
export function useChildren(userId: string | null) {
  return useQuery({
    queryKey: accountKeys.children(userId ?? ""),
    queryFn: () => apiGet<ChildProfile[]>(childrenUrl(userId ?? "")),
    enabled: userId !== null,
  });
}

/** POST (a new child), PUT (a child changed) or DELETE (a child removed). */
export function useSaveChild(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, values }: { id: string | null; values: ChildProfileInput | null }): Promise<void> => {
      if (values === null) return apiRequest<void>("DELETE", `${childrenUrl(userId)}/${id}`);
      const url = id ? `${childrenUrl(userId)}/${id}` : childrenUrl(userId);
      await apiRequest<ChildProfile>(id ? "PUT" : "POST", url, values);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.children(userId) }),
  });
}
