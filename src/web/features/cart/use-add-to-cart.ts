import { useCallback } from "react";
import { addToCartProblem, lineQuantity } from "#domain/cart.js";
import type { Product } from "#domain/schemas/catalog.js";
import { maxOrderable, productWithSize } from "#domain/stock.js";
import { toast } from "#web/components/ui/toast.js";
import { useSession } from "../account";
import { useCart } from "./cart-context";

/** What happened: added to the cart, refused with a toast, or the guest was asked to log in. */
export type AddOutcome = "added" | "refused" | "login";

const theLast = (left: number) => (left === 1 ? "the last one" : `the last ${left}`);

/**
 * The add button of the card and the detail dialog: checks the rules, prompts guests to log in,
 * then adds as many as are left to sell, saying so when that is fewer than asked.
 */
export function useAddToCart() {
  const { user, setLoginOpen } = useSession();
  const { items, add } = useCart();

  return useCallback(
    (product: Product, size: string, quantity: number): AddOutcome => {
      const problem = addToCartProblem(product, size);
      if (problem) {
        toast({ title: "Can't add to cart", description: problem, variant: "error" });
        return "refused";
      }
      if (!user) {
        setLoginOpen(true);
        return "login";
      }
      const left = maxOrderable(product, size);
      const adding = Math.min(quantity, left - lineQuantity(items, product.id, size));
      const what = productWithSize(product.name, size);
      if (adding <= 0) {
        toast({
          title: "Can't add to cart",
          description: `Your cart already holds ${theLast(left)} of ${what}.`,
          variant: "error",
        });
        return "refused";
      }
      add(product, size, adding);
      const short = adding < quantity ? ` (only ${left} left)` : "";
      toast({ title: "Added to cart", description: `${what} x${adding}${short}`, variant: "success" });
      return "added";
    },
    [user, setLoginOpen, items, add],
  );
}
