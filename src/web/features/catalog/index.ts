// The catalog feature's public face: what other features may use.
export { CATEGORIES_KEY } from "./api/get-categories";
export { PRODUCTS_KEY, productsQueryOptions, useProducts } from "./api/get-products";
export { CatalogProvider, useCatalog } from "./catalog-context";
export { LowStockNote } from "./stock-note";
