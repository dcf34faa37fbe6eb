import { useSyncExternalStore } from "react";

/**
 * The size finder's last answer for this visit (docs/decisions/046-size-finder.md): the size it
 * recommends per product id, kept in sessionStorage so the cards' and the dialog's size menus
 * preselect it until the tab is closed. Small on purpose: the cards of the first load read it.
 */
export interface FoundSizes {
  /** What was asked, for people: "7.5 kg", "Lwazi (8.6 kg)". */
  label: string;
  sizes: Record<string, string>;
}

const KEY = "size-finder";
const listeners = new Set<() => void>();
let current: FoundSizes | null | undefined;

function read(): FoundSizes | null {
  if (current !== undefined) return current;
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as FoundSizes | null;
    current = value && typeof value.label === "string" && typeof value.sizes === "object" ? value : null;
  } catch {
    current = null;
  }
  return current;
}

/** Keeps a finder's answer (merged over the last one's, so other products' sizes stay) and tells the cards. */
export function keepFoundSizes(found: FoundSizes | null) {
  current = found && { label: found.label, sizes: { ...read()?.sizes, ...found.sizes } };
  try {
    if (current) sessionStorage.setItem(KEY, JSON.stringify(current));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage off: the answer still holds for this page.
  }
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The finder's answer (null before one, and while the server's page hydrates). */
export function useFoundSizes(): FoundSizes | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

/** The size the finder recommends for a product, when it is one of the product's sizes. */
export function useRecommendedSize(product: { id: string; sizes: string[] }): string | null {
  const size = useFoundSizes()?.sizes[product.id];
  return size && product.sizes.includes(size) ? size : null;
}
