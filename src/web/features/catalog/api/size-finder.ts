import type { SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import { apiGet } from "#web/lib/api.js";

export type FinderQuestion = { weightKg: number } | { waistCm: number } | { childId: string };

/** GET /api/size-finder: each product's size for a weight, a waist or a child, of some products or a category. */
export function findSizes(question: FinderQuestion, scope: { productIds?: string[]; category?: string | null }) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(question)) params.set(key, String(value));
  if (scope.productIds?.length) params.set("productIds", scope.productIds.join(","));
  if (scope.category) params.set("category", scope.category);
  return apiGet<SizeFinderAnswer>(`/api/size-finder?${params}`);
}
