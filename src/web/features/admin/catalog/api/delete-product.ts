import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { catalogChanged } from "../../shared";

export function deleteProduct(id: string) {
  return apiRequest<void>("DELETE", `/api/admin/products/${id}`);
}

/** DELETE /api/admin/products/{id} (the caller asks for confirmation first). */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: () => toast({ title: "Product deleted", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to delete product"), variant: "error" }),
    onSettled: () => catalogChanged(queryClient),
  });
}
