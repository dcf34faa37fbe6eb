import { useMutation } from "@tanstack/react-query";
import type { CreateOrderAnswer, CreateOrderInput } from "../../../../domain/schemas/orders";
import { toast } from "../../../components/ui/toast";
import { ApiError, apiRequest, errorMessage } from "../../../lib/api";
import { postToPayfast } from "../payfast-redirect";

export function createOrder(body: CreateOrderInput) {
  return apiRequest<Partial<CreateOrderAnswer>>("POST", "/api/create-order", body);
}

/**
 * POST /api/create-order, then on to PayFast with the signed fields it answers. `onFailed` runs
 * whenever the shopper stays on the page (the button can be pressed again).
 */
export function useCreateOrder({ onFailed }: { onFailed: () => void }) {
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
      const cartChanged = error instanceof ApiError && error.code === "CART_CHANGED";
      toast({
        title: "Order Creation Failed",
        description: errorMessage(
          error,
          cartChanged
            ? "A price or size in your cart changed. Please review your cart and try again."
            : "Failed to create order. Please try again.",
        ),
        variant: "error",
      });
      onFailed();
    },
  });
}
