// The catalog feature's public face: what other features may use.
export { CATEGORIES_KEY } from "./api/get-categories";
export { PRODUCTS_KEY } from "./api/get-products";
export { CatalogProvider, useCatalog } from "./catalog-context";
