import { useMutation, useQueryClient } from "@tanstack/react-query";
import { centsToDecimal } from "#domain/money.js";
import type { AdminProduct, ProductValues } from "#domain/schemas/catalog.js";
import { toast } from "#web/components/ui/toast.js";
import { ApiError, apiRequest, errorMessage } from "#web/lib/api.js";
import { catalogChanged } from "../../shared";

/** The body of docs/product.md §7 from the validated form: prices go back to rand text ("249.99"). */
export function productBody(values: ProductValues) {
  return {
    ...values,
    price: centsToDecimal(values.price),
    sizePrices: Object.fromEntries(
      Object.entries(values.sizePrices).map(([size, cents]) => [size, centsToDecimal(cents)]),
    ),
    promoText: values.promoText ?? "",
  };
}

export function createProduct(values: ProductValues) {
  return apiRequest<AdminProduct>("POST", "/api/admin/products", productBody(values));
}

export function updateProduct(id: string, values: ProductValues) {
  return apiRequest<AdminProduct>("PUT", `/api/admin/products/${id}`, productBody(values));
}

/**
 * POST /api/admin/products, or PUT /api/admin/products/{id} when editing. Failures are toasted,
 * except 409 STOCK_HELD (a size set below what unpaid orders hold): the form shows the server's
 * words beside Save, from the mutation's error.
 */
export function useSaveProduct(id: string | null) {
  const queryClient = useQueryClient();
  const verb = id ? "update" : "create";
  return useMutation({
    mutationFn: (values: ProductValues) => (id ? updateProduct(id, values) : createProduct(values)),
    onSuccess: () => toast({ title: id ? "Product updated" : "Product created", variant: "success" }),
    onError: (error) => {
      if (error instanceof ApiError && error.code === "STOCK_HELD") return;
      toast({ title: "Error", description: errorMessage(error, `Failed to ${verb} product`), variant: "error" });
    },
    onSettled: () => catalogChanged(queryClient),
  });
}
