import { useMutation, useQueryClient } from "@tanstack/react-query";
import { centsToDecimal } from "../../../../domain/money";
import type { Product, ProductValues } from "../../../../domain/schemas/catalog";
import { toast } from "../../../components/ui/toast";
import { apiRequest, errorMessage } from "../../../lib/api";
import { catalogueChanged } from "./keys";

/** The body of docs/product.md §7 from the validated form: the price goes back to rand text ("249.99"). */
function productBody(values: ProductValues) {
  return { ...values, price: centsToDecimal(values.price), promoText: values.promoText ?? "" };
}

export function createProduct(values: ProductValues) {
  return apiRequest<Product>("POST", "/api/admin/products", productBody(values));
}

export function updateProduct(id: string, values: ProductValues) {
  return apiRequest<Product>("PUT", `/api/admin/products/${id}`, productBody(values));
}

/** POST /api/admin/products, or PUT /api/admin/products/{id} when editing. */
export function useSaveProduct(id: string | null) {
  const queryClient = useQueryClient();
  const verb = id ? "update" : "create";
  return useMutation({
    mutationFn: (values: ProductValues) => (id ? updateProduct(id, values) : createProduct(values)),
    onSuccess: () => toast({ title: id ? "Product updated" : "Product created", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, `Failed to ${verb} product`), variant: "error" }),
    onSettled: () => catalogueChanged(queryClient),
  });
}
