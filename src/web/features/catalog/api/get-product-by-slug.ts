import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductWithRelated } from "#domain/schemas/catalog-search.js";
import { apiGet } from "#web/lib/api.js";
import { PRODUCTS_KEY } from "./get-products";

/**
 * GET /api/products/by-slug/{slug}: a product and a few others of its category (the query key is
 * the URL). Null when a server-rendered page said the product is not in the catalogue.
 */
export const productBySlugOptions = (slug: string) =>
  queryOptions<ProductWithRelated | null>({
    queryKey: [...PRODUCTS_KEY, "by-slug", slug],
    queryFn: () => apiGet<ProductWithRelated>(`/api/products/by-slug/${encodeURIComponent(slug)}`),
  });

/**
 * The one 404 page of every unknown product address is rendered once, whatever the slug
 * (docs/decisions/012-server-rendering.md): before hydrating it, the browser learns that the
 * product of its own address is missing, so its first render shows not found as the server's did.
 */
export function markProductMissing(queryClient: QueryClient, path: string) {
  const slug = /^\/products\/([^/]+)$/.exec(path)?.[1];
  if (!slug) return;
  // As the address has it and decoded either way: the router hands the page one of them.
  const slugs = new Set([slug]);
  for (const decode of [decodeURI, decodeURIComponent]) {
    try {
      slugs.add(decode(slug));
    } catch {
      // Not decodable: the address as it is.
    }
  }
  for (const each of slugs) queryClient.setQueryData(productBySlugOptions(each).queryKey, null);
}

export function useProductBySlug(slug: string | null) {
  return useQuery({ ...productBySlugOptions(slug ?? ""), enabled: slug !== null });
}
