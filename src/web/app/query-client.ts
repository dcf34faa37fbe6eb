import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiGet } from "../lib/api";

/**
 * The query key is the URL: ["/api/products"], ["/api/users", id, "orders"] joins to a path. Each
 * feature's api/ folder owns its keys; a query whose URL is not its key brings its own queryFn.
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
