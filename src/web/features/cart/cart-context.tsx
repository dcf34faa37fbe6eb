import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import {
  addLine,
  type CartLine,
  cartCount,
  cartKey,
  cartSubtotalCents,
  isCart,
  LEGACY_CART_KEY,
  removeLine,
  setLineQuantity,
} from "#domain/cart.js";
import type { Product } from "#domain/schemas/catalog.js";
import { maxOrderable } from "#domain/stock.js";
import { isServerRendered } from "#web/lib/server-rendered.js";
import { readJson, removeKey, writeJson } from "#web/lib/storage.js";
import { useSession } from "../account";

export interface CartAddition {
  product: Product;
  size: string;
  quantity: number;
}

const addWithinStock = (cart: CartLine[], { product, size, quantity }: CartAddition) =>
  addLine(cart, product, size, quantity, maxOrderable(product, size));

interface CartState {
  items: CartLine[];
  count: number;
  subtotalCents: number;
  /** Adds up to what is left of the size (maxOrderable): `product` is the catalogue's, with today's stock. */
  add: (product: Product, size: string, quantity: number) => void;
  /** Several adds at once, each as `add` does it. */
  addMany: (lines: readonly CartAddition[]) => void;
  /** `max`: what is left of the line's size, when the catalogue knows it. */
  setQuantity: (id: string, size: string, quantity: number, max?: number) => void;
  remove: (id: string, size: string) => void;
  clear: () => void;
  open: boolean;
  setOpen: (open: boolean) => void;
}

const CartContext = createContext<CartState | null>(null);

/** Reads the cart of a key; a cart under the old key `nappiesCart` moves to the current key once. */
function loadCart(key: string): CartLine[] {
  const current = readJson(key, isCart);
  if (current) return current;
  const legacy = readJson(LEGACY_CART_KEY, isCart);
  if (legacy) {
    removeKey(LEGACY_CART_KEY);
    if (legacy.length) writeJson(key, legacy);
    return legacy;
  }
  return [];
}

export function CartProvider({ children }: { children: ReactNode }) {
  const { userId } = useSession();
  const key = cartKey(userId);
  // A server-rendered page shows an empty cart: the stored one is read after hydration.
  const [items, setItems] = useState<CartLine[]>(() => (isServerRendered() ? [] : loadCart(key)));
  const [open, setOpen] = useState(false);
  const previousUser = useRef(userId);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the key of the first render
  useEffect(() => {
    if (isServerRendered()) setItems(loadCart(key));
  }, []);

  // The cart reloads whenever the user changes; signing out clears the signed-out user's cart.
  useEffect(() => {
    const before = previousUser.current;
    const now = userId;
    if (before === now) return;
    previousUser.current = now;
    if (before && !now) removeKey(cartKey(before));
    setItems(loadCart(cartKey(now)));
  }, [userId]);

  const save = useCallback(
    (next: CartLine[]) => {
      if (next.length) writeJson(key, next);
      else removeKey(key);
      setItems(next);
    },
    [key],
  );

  const value = useMemo<CartState>(
    () => ({
      items,
      count: cartCount(items),
      subtotalCents: cartSubtotalCents(items),
      add: (product, size, quantity) => save(addWithinStock(items, { product, size, quantity })),
      addMany: (lines) => save(lines.reduce(addWithinStock, items)),
      setQuantity: (id, size, quantity, max) => save(setLineQuantity(items, id, size, quantity, max)),
      remove: (id, size) => save(removeLine(items, id, size)),
      clear: () => save([]),
      open,
      setOpen,
    }),
    [items, open, save],
  );
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartState {
  const context = useContext(CartContext);
  if (!context) throw new Error("useCart outside CartProvider");
  return context;
}
