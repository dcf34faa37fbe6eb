// The catalog's data, for features that show products without the catalog's pages (the cart's
// stock, Buy again): importing it does not pull in the storefront's components.
export { CATEGORIES_KEY } from "./get-categories";
export { markProductMissing, productBySlugOptions } from "./get-product-by-slug";
export { PRODUCTS_KEY, productsQueryOptions, useProducts } from "./get-products";
