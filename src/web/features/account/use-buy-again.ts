import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { Order } from "#domain/schemas/orders.js";
import { toast } from "#web/components/ui/toast.js";
import { errorMessage } from "#web/lib/api.js";
import { useCart } from "../cart";
import { productsQueryOptions } from "../catalog/api";
import { buyAgainToast, planBuyAgain } from "./buy-again";

/**
 * Buy again: fetches today's catalogue (the storefront's products query, asked afresh so prices
 * and stock are current), puts what is still for sale into the cart, and says what was left out.
 * The cart stays closed, as after Add to Cart. `busyOrderId` is the order being added.
 */
export function useBuyAgain() {
  const queryClient = useQueryClient();
  const cart = useCart();
  // The cart as it is when the catalogue arrives, not as it was at the click.
  const latestCart = useRef(cart);
  latestCart.current = cart;
  const [busyOrderId, setBusyOrderId] = useState<string | null>(null);

  const buyAgain = useCallback(
    async (order: Order) => {
      setBusyOrderId(order.id);
      try {
        const catalogue = await queryClient.fetchQuery({ ...productsQueryOptions(), staleTime: 0 });
        const { items, addMany } = latestCart.current;
        const plan = planBuyAgain(order.items, catalogue, items);
        addMany(plan.additions);
        toast(buyAgainToast(plan));
      } catch (error) {
        toast({
          title: "Couldn't add to cart",
          description: errorMessage(error, "We could not load today's products. Please try again."),
          variant: "error",
        });
      } finally {
        setBusyOrderId(null);
      }
    },
    [queryClient],
  );

  return { buyAgain, busyOrderId };
}
