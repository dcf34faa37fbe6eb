import { useCallback } from "react";
import { addToCartProblem } from "../../../domain/cart";
import type { Product } from "../../../domain/schemas/catalog";
import { toast } from "../../components/ui/toast";
import { useSession } from "../account";
import { useCart } from "../cart";

/** What happened: added to the cart, refused with a toast, or the guest was asked to log in. */
export type AddOutcome = "added" | "refused" | "login";

/** The add button of the card and the detail dialog: checks the rules, prompts guests to log in, then adds. */
export function useAddToCart() {
  const { user, setLoginOpen } = useSession();
  const { add } = useCart();

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
      add(product, size, quantity);
      toast({ title: "Added to cart", description: `${product.name} (${size}) x${quantity}`, variant: "success" });
      return "added";
    },
    [user, setLoginOpen, add],
  );
}
