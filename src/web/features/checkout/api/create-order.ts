import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateOrderAnswer, CreateOrderInput } from "#domain/schemas/orders.js";
import { toast } from "#web/components/ui/toast.js";
import { ApiError, type ApiErrorCode, apiRequest, errorMessage } from "#web/lib/api.js";
import { isShopPaused } from "#web/lib/shop-paused.js";
import { PRODUCTS_KEY } from "../../catalog";
import { postToPayfast } from "../payfast-redirect";

/** Words for a refusal whose answer carried no message of its own. */
const FALLBACKS: Partial<Record<ApiErrorCode, string>> = {
  CART_CHANGED: "A price or size in your cart changed. Please review your cart and try again.",
  OUT_OF_STOCK: "Some of your cart is no longer in stock. Please update your cart and try again.",
};

export function createOrder(body: CreateOrderInput) {
  return apiRequest<Partial<CreateOrderAnswer>>("POST", "/api/create-order", body);
}

/**
 * POST /api/create-order, then on to PayFast with the signed fields it answers. `onFailed` runs
 * whenever the shopper stays on the page (the button can be pressed again). A shop paused for a
 * moment (isShopPaused) raises no toast: the checkout page shows its notice from the mutation's error.
 */
export function useCreateOrder({ onFailed }: { onFailed: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrder,
    onSuccess: (answer) => {
      if (!answer.orderId || !answer.payfastData || !answer.payfastUrl) {
        toast({
          title: "Configuration Error",
          description: "Payment system is not properly configured. Please contact support.",
          variant: "error",
        });
        onFailed();
        return;
      }
      toast({ title: "Redirecting to Payment", description: "Taking you to PayFast to pay securely." });
      postToPayfast(answer.payfastUrl, answer.payfastData);
    },
    onError: (error) => {
      if (isShopPaused(error)) {
        onFailed();
        return;
      }
      const code = error instanceof ApiError ? error.code : "INTERNAL_ERROR";
      toast({
        title: code === "OUT_OF_STOCK" ? "Not enough in stock" : "Order Creation Failed",
        description: errorMessage(error, FALLBACKS[code] ?? "Failed to create order. Please try again."),
        variant: "error",
      });
      // The catalogue changed under the cart: ask for it again, so the cart and storefront show today's stock.
      if (code === "OUT_OF_STOCK" || code === "CART_CHANGED") {
        void queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });
      }
      onFailed();
    },
  });
}
