import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useState } from "react";
import { useLocation } from "wouter";
import { categoryOfPath, categoryTitle, productPath, searchParamsOf } from "#domain/catalog.js";
import type { Product } from "#domain/schemas/catalog.js";
import { pricesLine } from "#domain/vat-wording.js";
import { Button } from "#web/components/ui/button.js";
import { SearchIcon } from "#web/components/ui/icons.js";
import { publicConfig } from "#web/lib/public-config.js";
import { useCategories } from "./api/get-categories";
import { useProductBySlug } from "./api/get-product-by-slug";
import { useSearchProducts } from "./api/search-products";
import { PRODUCTS_HEADING_ID, PRODUCTS_ID, scrollToProducts, useCatalog } from "./catalog-context";
import { CatalogFilters } from "./catalog-filters";
import { Hero } from "./hero";
import { isOverGrid, OVER_GRID_STATE } from "./over-grid";
import { ProductCard, ProductCardSkeleton } from "./product-card";

const loadDetailDialog = () => import("./product-detail-dialog");
/** Only a catalogue of more than one page needs it: loaded then, not with the first bundle. */
const MoreProducts = lazy(() => import("./more-products"));
const ProductDetailDialog = lazy(loadDetailDialog);

/** Skeleton grid while loading (docs/product.md §9). */
const SKELETON_CARDS = 8;
/** Cards in the first row on the widest layout: their images load eagerly. */
const FIRST_ROW = 4;

/**
 * The storefront: hero, filters and the grid. `detailSlug` is the product whose detail shows over
 * the grid (its address, /products/{slug}, was pushed when its card was opened); Back closes it.
 */
export function StorefrontPage({ detailSlug }: { detailSlug: string | null }) {
  const categories = useCategories();
  const { filter, updateFilter, clearFilters, scrollRequests, takePendingScroll } = useCatalog();
  // The server is asked once the shopper pauses typing, not for every letter.
  const search = useDebouncedValue(filter.search, SEARCH_PAUSE_MS);
  const params = searchParamsOf({ ...filter, search });
  const products = useSearchProducts(params);
  const [location, navigate] = useLocation();
  const loadedProducts = useMemo(
    () => (products.data ? products.pages.flatMap((page) => page.products) : undefined),
    [products.data, products.pages],
  );
  const fromGrid = detailSlug ? loadedProducts?.find((product) => product.slug === detailSlug) : undefined;
  // A product the grid has not loaded (a later page, or another filter's) is asked for by its slug.
  const bySlug = useProductBySlug(detailSlug && !fromGrid ? detailSlug : null);
  const detailProduct = fromGrid ?? (detailSlug ? bySlug.data?.product : undefined);
  // The last product shown stays mounted after its dialog closes, so it can animate closed.
  const [shownDetail, setShownDetail] = useState<Product | null>(null);
  if (detailProduct && detailProduct !== shownDetail) setShownDetail(detailProduct);
  const closeDetail = () => {
    if (isOverGrid(window.history.state)) window.history.back();
    else navigate("/", { replace: true });
  };
  const pageCategory = categoryOfPath(location);

  useEffect(() => {
    if (pageCategory) document.title = `${categoryTitle(pageCategory)} | ${publicConfig.name}`;
  }, [pageCategory]);

  // The grid renders as a transition: React slices the work of the cards into short tasks, so the
  // page stays responsive while it loads and while the shopper types in the search box.
  const visible = useDeferredValue(loadedProducts);
  const loading = products.isPending || (products.isSuccess && visible === undefined);
  const total = products.data?.total ?? 0;
  // The grid shows the filter asked for (not the previous one's products, kept while it loads).
  const settled = products.isSuccess && !products.isPlaceholderData && visible === loadedProducts;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = products;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // A shortcut's scroll waits until the grid shows its filter, so the page's height has settled.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollRequests is the trigger
  useEffect(() => {
    if (settled && takePendingScroll()) scrollToProducts();
  }, [settled, scrollRequests, takePendingScroll]);

  return (
    <>
      <Hero />
      <section
        id={PRODUCTS_ID}
        aria-labelledby={PRODUCTS_HEADING_ID}
        className="mx-auto max-w-6xl px-4 pt-10 pb-16 sm:pt-12"
        onPointerOver={() => void loadDetailDialog()}
        onFocus={() => void loadDetailDialog()}
      >
        <div className="mb-6">
          <h2 id={PRODUCTS_HEADING_ID} tabIndex={-1} className="text-2xl font-bold text-stone-950 focus:outline-none">
            Our products
          </h2>
          <p className="mt-1 text-stone-600">{pricesLine(publicConfig.vatRegistered)}</p>
        </div>

        <CatalogFilters filter={filter} categories={categories.data ?? []} onChange={updateFilter} />

        <p role="status" className="mt-6 mb-4 text-sm font-medium text-stone-700">
          {loading ? "Loading..." : `${total} product(s) found`}
        </p>

        {loading ? (
          <ul aria-hidden="true" className={GRID}>
            {Array.from({ length: SKELETON_CARDS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
              <li key={index}>
                <ProductCardSkeleton />
              </li>
            ))}
          </ul>
        ) : products.isError && !visible?.length ? (
          <LoadError onRetry={() => void products.refetch()} />
        ) : !visible?.length ? (
          <EmptyState onClear={clearFilters} />
        ) : (
          <>
            <ul className={GRID} aria-busy={products.isPlaceholderData || isFetchingNextPage}>
              {visible.map((product, index) => (
                // A container, so a card can size its stand-in from its column's width (product-card.tsx).
                <li key={product.id} className="@container">
                  <ProductCard
                    product={product}
                    eager={index < FIRST_ROW}
                    onOpenDetail={(chosen) => navigate(productPath(chosen.slug), { state: OVER_GRID_STATE })}
                  />
                </li>
              ))}
            </ul>
            {hasNextPage && (
              <Suspense fallback={null}>
                <MoreProducts
                  shown={visible.length}
                  total={total}
                  loading={isFetchingNextPage}
                  failed={products.isFetchNextPageError}
                  onMore={loadMore}
                />
              </Suspense>
            )}
          </>
        )}
      </section>

      {shownDetail && (
        <Suspense fallback={null}>
          <ProductDetailDialog
            key={shownDetail.id}
            product={shownDetail}
            open={Boolean(detailProduct)}
            onOpenChange={(open) => {
              if (!open) closeDetail();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/** How long the search box waits for the shopper to pause before it asks the server. */
const SEARCH_PAUSE_MS = 200;

function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

const GRID = "grid grid-cols-1 gap-4 sm:grid-cols-2 sm:gap-5 md:grid-cols-3 xl:grid-cols-4";

function EmptyState({ onClear }: { onClear: () => void }) {
  return (
    <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
      <span className="mx-auto grid size-12 place-items-center rounded-full bg-brand-50 text-brand-700">
        <SearchIcon className="size-6" />
      </span>
      <p className="mt-4 text-lg font-semibold text-stone-950">No products found matching your criteria</p>
      <p className="mt-1 text-sm text-stone-600">Try another word, or look through all our products.</p>
      <Button onClick={onClear} className="mt-6">
        Clear Filters
      </Button>
    </div>
  );
}

function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 px-6 py-10 text-center">
      <p className="text-lg font-semibold text-red-950">We couldn't load our products just now</p>
      <p className="mt-1 text-sm text-red-900">Please check your connection and try again.</p>
      <Button onClick={onRetry} variant="outline" className="mt-6">
        Try again
      </Button>
    </div>
  );
}
