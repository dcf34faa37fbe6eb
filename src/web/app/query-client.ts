import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { getJson } from "../lib/api";

/** The query key is the URL: ["/api/products"], ["/api/users", id, "orders"] joins to a path. */
const defaultQueryFn: QueryFunction = ({ queryKey }) => getJson(queryKey.map(String).join("/"));

/** SPEC.md section 9: no refetch interval, no refetch on focus, never stale, no retries. */
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
