import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { CartLine } from "#domain/cart.js";
import { MAX_LINE_QUANTITY } from "#domain/limits.js";
import type { Product } from "#domain/schemas/catalog.js";
import { maxOrderable } from "#domain/stock.js";
import { PRODUCTS_KEY, productBySlugOptions } from "../catalog/api";
import { useCart } from "./cart-context";

export interface LineStock {
  /** The most the line may hold: what is left of its size, or a cart line's limit when plenty (or unknown). */
  max: number;
  /** Units left when few are (0: sold out); null when plenty are left or the catalogue does not say. */
  left: number | null;
}

const NONE: (Product | undefined)[] = [];

const UNKNOWN: LineStock = { max: MAX_LINE_QUANTITY, left: null };

/**
 * The cart's products as the live catalogue has them now, rather than the copy of the product each
 * line was added with: each product of the cart is read by its slug (a few small answers, not the
 * whole catalogue); undefined while loading or when gone.
 */
export function useLiveCartProducts(): (Product | undefined)[] {
  const { items } = useCart();
  const queryClient = useQueryClient();
  const slugs = [...new Set(items.map((line) => line.slug).filter(Boolean))].sort();
  // One query over the cart's products (each read by slug, and kept under its own key): lighter for
  // the first-load bundle than a query per product with useQueries.
  const { data: live = NONE } = useQuery({
    queryKey: [...PRODUCTS_KEY, "cart", slugs],
    queryFn: () =>
      Promise.all(
        slugs.map((slug) =>
          queryClient
            .fetchQuery({ ...productBySlugOptions(slug), staleTime: 0 })
            .then((found) => found?.product)
            .catch(() => undefined),
        ),
      ),
    enabled: slugs.length > 0,
  });
  return live;
}

/**
 * What is left of each cart line's size, from the live catalogue. A line whose product or size is
 * gone is left for create-order to refuse (CART_CHANGED).
 */
export function useLineStock(): (line: CartLine) => LineStock {
  const live = useLiveCartProducts();
  return useCallback(
    (line) => {
      const product = live.find((candidate) => candidate?.id === line.id);
      if (!product?.sizes.includes(line.size)) return UNKNOWN;
      const max = maxOrderable(product, line.size);
      return { max, left: max === 0 ? 0 : (product.sizeLowStock[line.size] ?? null) };
    },
    [live],
  );
}
