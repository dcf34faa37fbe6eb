// The catalog feature's public face: what other features may use.
export { CATEGORIES_KEY } from "./api/get-categories";
export { markProductMissing, productBySlugOptions } from "./api/get-product-by-slug";
export { PRODUCTS_KEY, productsQueryOptions, useProducts } from "./api/get-products";
export { CatalogProvider, useCatalog } from "./catalog-context";
export { CatalogRoutes } from "./catalog-routes";
export { isOverGrid } from "./over-grid";
export { LowStockNote } from "./stock-note";
