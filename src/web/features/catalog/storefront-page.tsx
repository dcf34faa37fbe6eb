import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useState } from "react";
import { useLocation } from "wouter";
import { categoryOfPath, categoryTitle, filterAndSortProducts, productPath } from "../../../domain/catalog";
import type { Product } from "../../../domain/schemas/catalog";
import { Button } from "../../components/ui/button";
import { SearchIcon } from "../../components/ui/icons";
import { publicConfig } from "../../lib/public-config";
import { useCategories } from "./api/get-categories";
import { useProducts } from "./api/get-products";
import { PRODUCTS_HEADING_ID, PRODUCTS_ID, scrollToProducts, useCatalog } from "./catalog-context";
import { CatalogFilters } from "./catalog-filters";
import { Hero } from "./hero";
import { isOverGrid, OVER_GRID_STATE } from "./over-grid";
import { ProductCard, ProductCardSkeleton } from "./product-card";

const loadDetailDialog = () => import("./product-detail-dialog");
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
  const products = useProducts();
  const categories = useCategories();
  const { filter, updateFilter, clearFilters, scrollRequests, takePendingScroll } = useCatalog();
  const [location, navigate] = useLocation();
  const detailProduct = detailSlug ? products.data?.find((product) => product.slug === detailSlug) : undefined;
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

  // The grid renders as a transition: React slices the work of 30-odd cards into short tasks, so the
  // page stays responsive while it loads and while the shopper types in the search box.
  const shownProducts = useDeferredValue(products.data);
  const shownFilter = useDeferredValue(filter);
  const loading = products.isPending || (products.isSuccess && shownProducts === undefined);
  const visible = useMemo(() => filterAndSortProducts(shownProducts ?? [], shownFilter), [shownProducts, shownFilter]);

  // A shortcut's scroll waits until the grid shows its filter, so the page's height has settled.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollRequests is the trigger
  useEffect(() => {
    if (shownFilter === filter && takePendingScroll()) scrollToProducts();
  }, [filter, shownFilter, scrollRequests, takePendingScroll]);

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
          <p className="mt-1 text-stone-600">Prices in rand, VAT included.</p>
        </div>

        <CatalogFilters filter={filter} categories={categories.data ?? []} onChange={updateFilter} />

        <p role="status" className="mt-6 mb-4 text-sm font-medium text-stone-700">
          {loading ? "Loading..." : `${visible.length} product(s) found`}
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
        ) : products.isError ? (
          <LoadError onRetry={() => void products.refetch()} />
        ) : visible.length === 0 ? (
          <EmptyState onClear={clearFilters} />
        ) : (
          <ul className={GRID}>
            {visible.map((product, index) => (
              <li key={product.id}>
                <ProductCard
                  product={product}
                  eager={index < FIRST_ROW}
                  onOpenDetail={(chosen) => navigate(productPath(chosen.slug), { state: OVER_GRID_STATE })}
                />
              </li>
            ))}
          </ul>
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
