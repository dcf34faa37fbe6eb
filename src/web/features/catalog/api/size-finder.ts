import { useQuery } from "@tanstack/react-query";
import type { ChildProfile, SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { accountKeys } from "../../account";

export type FinderQuestion = { weightKg: number } | { waistCm: number } | { childId: string };

/** GET /api/size-finder: each product's size for a weight, a waist or a child, of some products or a category. */
export function findSizes(question: FinderQuestion, scope: { productIds?: string[]; category?: string | null }) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(question)) params.set(key, String(value));
  if (scope.productIds?.length) params.set("productIds", scope.productIds.join(","));
  if (scope.category) params.set("category", scope.category);
  return apiGet<SizeFinderAnswer>(`/api/size-finder?${params}`);
}

/** GET /api/users/{id}/children: the parent's children, for "use Lwazi's weight" (the profile's own list shares the key). */
export function useFinderChildren(userId: string | null) {
  return useQuery({
    queryKey: accountKeys.children(userId ?? ""),
    queryFn: () => apiGet<ChildProfile[]>(`/api/users/${userId}/children`),
    enabled: userId !== null,
  });
}

/** POST .../size-up-prompted: "Time to move up a size?" was shown for this weight; not again until a new one. */
export function markSizeUpPrompted(userId: string, childId: string) {
  return apiRequest<ChildProfile>("POST", `/api/users/${userId}/children/${childId}/size-up-prompted`);
}
