import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { catalogChanged } from "../../shared";

export function deleteCategory(id: string) {
  return apiRequest<void>("DELETE", `/api/admin/categories/${id}`);
}

/** DELETE /api/admin/categories/{id} (the caller asks for confirmation first). */
export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: () => toast({ title: "Category deleted", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to delete category"), variant: "error" }),
    onSettled: () => catalogChanged(queryClient),
  });
}
