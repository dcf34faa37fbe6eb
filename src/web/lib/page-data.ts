import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * The data a server-rendered page was rendered with (docs/decisions/012-server-rendering.md): each
 * query's key and answer, as inert JSON in <script type="application/json" id="page-data">. The
 * browser puts them in its query cache before hydrating, so its first render matches the HTML and
 * nothing is fetched twice.
 */
export interface PageData {
  queries: { key: QueryKey; data: unknown }[];
  /**
   * The page is the one 404 page of every unknown product address (kept once, whatever the slug):
   * the product of the address it answers is not in the catalogue.
   */
  missingProduct?: boolean;
}

export const PAGE_DATA_ID = "page-data";

export function fillQueryCache(queryClient: QueryClient, pageData: PageData) {
  for (const { key, data } of pageData.queries) queryClient.setQueryData(key, data);
}

/** The page's data, or null when the page was not rendered on the server (or the JSON is unreadable). */
export function readPageData(): PageData | null {
  const text = document.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<PageData>;
    if (!Array.isArray(data.queries)) return null;
    return { queries: data.queries, ...(data.missingProduct === true ? { missingProduct: true } : {}) };
  } catch {
    return null;
  }
}
