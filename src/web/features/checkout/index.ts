// The checkout feature's public face for other features: the cart sheet shows the multi-buy notes the
// checkout does. Nothing the storefront's first load imports comes through here (docs/decisions/047).
export { type CartMultibuy, isLastOfProduct, MultibuyLineNote, useCartMultibuy } from "./multibuy-note";
