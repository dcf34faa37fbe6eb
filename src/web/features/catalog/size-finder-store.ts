import { useSyncExternalStore } from "react";

/**
 * The size finder's last answer for this visit (docs/decisions/046-size-finder.md): the size it
 * recommends per product id, in sessionStorage so the cards' and the dialog's size menus preselect
 * it until the tab is closed. Only the reading is here, in the first load; the finder (loaded
 * when opened) writes it and dispatches FOUND_SIZES_EVENT.
 */
export interface FoundSizes {
  /** What was asked, for people: "7.5 kg", "Lwazi (8.6 kg)". */
  label: string;
  sizes: Record<string, string>;
}

export const FOUND_SIZES_KEY = "size-finder";
/** Dispatched on window when the answer changes. */
export const FOUND_SIZES_EVENT = "size-finder";

/** The stored answer as text: a string, so React sees no change until it changes. */
function storedText(): string | null {
  try {
    return sessionStorage.getItem(FOUND_SIZES_KEY);
  } catch {
    return null; // Storage off: no answer kept.
  }
}

function parse(text: string | null): FoundSizes | null {
  try {
    const found = JSON.parse(text ?? "null") as FoundSizes | null;
    return typeof found?.sizes === "object" ? found : null;
  } catch {
    return null;
  }
}

export const readFoundSizes = (): FoundSizes | null => parse(storedText());

const subscribe = (listener: () => void) => {
  addEventListener(FOUND_SIZES_EVENT, listener);
  return () => removeEventListener(FOUND_SIZES_EVENT, listener);
};

/** The finder's answer (null before one, and while the server's page hydrates). */
export function useFoundSizes(): FoundSizes | null {
  return parse(useSyncExternalStore(subscribe, storedText, () => null));
}

/** The size the finder recommends for a product, when it is one of the product's sizes. */
export function useRecommendedSize(product: { id: string; sizes: string[] }): string | null {
  const size = useFoundSizes()?.sizes[product.id];
  return size && product.sizes.includes(size) ? size : null;
}
