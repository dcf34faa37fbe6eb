import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiGet } from "../lib/api";

/**
 * For the server-rendered storefront's queries only, the key is still the URL (["/api/products"],
 * the legal and policy pages): the server fills the cache under those keys (decision 012). Admin,
 * account and checkout name their data in words (adminKeys, accountKeys, checkoutKeys in each
 * feature's api/) and bring their own typed queryFn (decision 029).
 */
const defaultQueryFn: QueryFunction = ({ queryKey }) => apiGet(queryKey.map(String).join("/"));

/** docs/product.md §9: no refetch interval, no refetch on focus, never stale, no retries. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
