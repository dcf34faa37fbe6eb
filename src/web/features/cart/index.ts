// The cart feature's public face: what other features may use.
export { type CartAddition, useCart } from "./cart-context";
export { type LineStock, useLineStock, useLiveCartProducts } from "./line-stock";
export { LineStockNote } from "./line-stock-note";
export { type AddOutcome, useAddToCart } from "./use-add-to-cart";
