import { useCallback } from "react";
import { type CartLine, MAX_LINE_QUANTITY } from "../../../domain/cart";
import { maxOrderable } from "../../../domain/stock";
import { useProducts } from "../catalog";

export interface LineStock {
  /** The most the line may hold: what is left of its size, or a cart line's limit when plenty (or unknown). */
  max: number;
  /** Units left when few are (0: sold out); null when plenty are left or the catalogue does not say. */
  left: number | null;
}

const UNKNOWN: LineStock = { max: MAX_LINE_QUANTITY, left: null };

/**
 * What is left of each cart line's size, from the live catalogue rather than the copy of the
 * product the line was added with. A line whose product or size is gone is left for create-order
 * to refuse (CART_CHANGED).
 */
export function useLineStock(): (line: CartLine) => LineStock {
  const { data: products } = useProducts();
  return useCallback(
    (line) => {
      const product = products?.find((candidate) => candidate.id === line.id);
      if (!product?.sizes.includes(line.size)) return UNKNOWN;
      const max = maxOrderable(product, line.size);
      return { max, left: max === 0 ? 0 : (product.sizeLowStock[line.size] ?? null) };
    },
    [products],
  );
}
