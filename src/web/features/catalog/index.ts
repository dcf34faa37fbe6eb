// The catalog feature's public face: what other features may use.
export {
  CATEGORIES_KEY,
  markProductMissing,
  PRODUCTS_KEY,
  productBySlugOptions,
  productsQueryOptions,
  useProducts,
} from "./api";
export { CatalogProvider, useCatalog } from "./catalog-context";
export { CatalogRoutes } from "./catalog-routes";
export { isOverGrid } from "./over-grid";
export { LowStockNote } from "./stock-note";
