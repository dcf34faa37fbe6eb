// The cart feature's public face: what other features may use (the lines' live stock: ./api).
export { type CartAddition, useCart } from "./cart-context";
export { type AddOutcome, useAddToCart } from "./use-add-to-cart";
