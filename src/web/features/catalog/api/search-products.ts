import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { type CatalogSearchParams, catalogSearchPath } from "#domain/catalog.js";
import type { CatalogPage } from "#domain/schemas/catalog-search.js";
import { apiGet } from "#web/lib/api.js";
import { PRODUCTS_KEY } from "./get-products";

/**
 * A page of the storefront's products for a filter, 48 at a time from GET /api/products/search
 * (docs/decisions/026-pages-that-stay-small.md): the first page's key is the filter (a
 * server-rendered page brings it: src/server/pages/routes.ts builds the same key), a later page's
 * adds its cursor. Under PRODUCTS_KEY, so whatever refreshes the catalogue (an admin's change, an
 * order's stock) refreshes these too.
 */
export const searchPageOptions = (params: CatalogSearchParams, cursor: string | null) =>
  queryOptions<CatalogPage>({
    queryKey: cursor ? [...PRODUCTS_KEY, "search", params, cursor] : [...PRODUCTS_KEY, "search", params],
    queryFn: () => apiGet<CatalogPage>(catalogSearchPath(params, cursor)),
  });

const NONE: CatalogPage[] = [];

interface LaterPages {
  /** The filter and first page they follow: a new filter, or a fresh first page, starts again. */
  after: string;
  pages: CatalogPage[];
  loading: boolean;
  failed: boolean;
}

/**
 * The products of a filter: its first page, then each next page as `fetchNextPage` asks. The
 * previous filter's products stay on screen while the next filter's arrive. (Plain queries rather
 * than an infinite query: the same behaviour for a lighter first-load bundle.)
 */
export function useSearchProducts(params: CatalogSearchParams) {
  const queryClient = useQueryClient();
  const first = useQuery({ ...searchPageOptions(params, null), placeholderData: keepPreviousData });
  const after = `${JSON.stringify(params)}|${first.dataUpdatedAt}`;
  const [later, setLater] = useState<LaterPages>({ after, pages: [], loading: false, failed: false });
  const current = later.after === after ? later : { after, pages: NONE, loading: false, failed: false };
  // The same array while nothing changes: the grid defers its render on it.
  const pages = useMemo(() => (first.data ? [first.data, ...current.pages] : NONE), [first.data, current.pages]);
  const nextCursor = first.isPlaceholderData ? null : (pages.at(-1)?.nextCursor ?? null);
  const loading = current.loading;

  const fetchNextPage = useCallback(async () => {
    if (!nextCursor || loading) return;
    const update = (change: (state: LaterPages) => LaterPages) =>
      setLater((state) => change(state.after === after ? state : { after, pages: [], loading: false, failed: false }));
    update((state) => ({ ...state, loading: true, failed: false }));
    try {
      const page = await queryClient.fetchQuery(searchPageOptions(params, nextCursor));
      update((state) => ({ ...state, pages: [...state.pages, page], loading: false }));
    } catch {
      update((state) => ({ ...state, loading: false, failed: true }));
    }
  }, [after, loading, nextCursor, params, queryClient]);

  return {
    ...first,
    pages,
    hasNextPage: nextCursor !== null,
    isFetchingNextPage: loading,
    isFetchNextPageError: current.failed,
    fetchNextPage,
  };
}
