// The cart lines' live stock, for the cart sheet and the checkout. Apart from the cart's index, which
// the storefront's first load imports (Add to Cart): a module the first load imports, even through
// an index, is built into the first load with all its code, so only the pages showing cart lines load this.
export { type LineStock, useLineStock, useLiveCartProducts } from "../line-stock";
export { LineStockNote } from "../line-stock-note";
