// The cart feature's public face: what other features may use.
export { useCart } from "./cart-context";
