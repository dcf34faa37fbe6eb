import { lazy } from "react";
import { useRoute } from "wouter";
import { useHistoryState } from "wouter/use-browser-location";
import { isOverGrid } from "./over-grid";
import { StorefrontPage } from "./storefront-page";

const ProductPage = lazy(() => import("./product-page"));

/**
 * The storefront's addresses: /, /category/{name} and /products/{slug}. A product opened from the
 * grid keeps the grid under its dialog (the same StorefrontPage stays mounted, so the grid keeps
 * its place); its address opened directly, or reloaded, is the product's own page.
 */
export function CatalogRoutes() {
  const [isProduct, params] = useRoute<{ slug: string }>("/products/:slug");
  const overGrid = isOverGrid(useHistoryState());
  if (isProduct && !overGrid) return <ProductPage slug={params.slug} />;
  return <StorefrontPage detailSlug={isProduct ? params.slug : null} />;
}
