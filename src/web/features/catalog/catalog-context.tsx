import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "wouter";
import { type CatalogFilter, categoryOfPath, DEFAULT_FILTER } from "#domain/catalog.js";

interface CatalogState {
  filter: CatalogFilter;
  updateFilter: (patch: Partial<CatalogFilter>) => void;
  /** Clear Filters: resets search, category, sort and order. */
  clearFilters: () => void;
  /** A category shortcut (hero, footer): shows that category (or all) and scrolls to the products. */
  showCategory: (category: string | null) => void;
  /** Scrolls to the product grid, going to the storefront first when on another page. */
  goToProducts: () => void;
  /** Bumped by each request to scroll to the products; the storefront scrolls once its grid shows the filter. */
  scrollRequests: number;
  /** The storefront calls this once its grid has caught up: true once per request. */
  takePendingScroll: () => boolean;
  /** Hero's Learn More: the shell decides what it opens (the About dialog). */
  learnMore: () => void;
}

const CatalogContext = createContext<CatalogState | null>(null);

export const PRODUCTS_ID = "products";
export const PRODUCTS_HEADING_ID = "products-heading";

/** Scrolls to the product grid and moves focus to its heading, so keyboard and screen reader users land there too. */
export function scrollToProducts() {
  const section = document.getElementById(PRODUCTS_ID);
  if (!section) return;
  section.scrollIntoView({ block: "start" });
  document.getElementById(PRODUCTS_HEADING_ID)?.focus({ preventScroll: true });
}

/**
 * The storefront's filter state, kept above the routes so the header and footer shortcuts
 * (on any page) can set the category and bring the shopper to the products.
 */
export function CatalogProvider({ children, onLearnMore }: { children: ReactNode; onLearnMore: () => void }) {
  const [location, navigate] = useLocation();
  // A category's address (/category/{name}) shows that category, from the server's render on.
  const pathCategory = categoryOfPath(location);
  const [filter, setFilter] = useState<CatalogFilter>(() => ({ ...DEFAULT_FILTER, category: pathCategory }));
  useEffect(() => {
    if (pathCategory) setFilter((current) => ({ ...current, search: "", category: pathCategory }));
  }, [pathCategory]);
  const pendingScroll = useRef(false);
  const [scrollRequests, setScrollRequests] = useState(0);

  const goToProducts = useCallback(() => {
    pendingScroll.current = true;
    setScrollRequests((count) => count + 1);
    if (location !== "/") navigate("/");
  }, [location, navigate]);

  const takePendingScroll = useCallback(() => {
    const pending = pendingScroll.current;
    pendingScroll.current = false;
    return pending;
  }, []);

  const value = useMemo<CatalogState>(
    () => ({
      filter,
      updateFilter: (patch) => setFilter((current) => ({ ...current, ...patch })),
      clearFilters: () => setFilter(DEFAULT_FILTER),
      showCategory: (category) => {
        setFilter((current) => ({ ...current, search: "", category }));
        goToProducts();
      },
      goToProducts,
      scrollRequests,
      takePendingScroll,
      learnMore: onLearnMore,
    }),
    [filter, goToProducts, scrollRequests, takePendingScroll, onLearnMore],
  );
  return <CatalogContext.Provider value={value}>{children}</CatalogContext.Provider>;
}

export function useCatalog(): CatalogState {
  const context = useContext(CatalogContext);
  if (!context) throw new Error("useCatalog outside CatalogProvider");
  return context;
}
