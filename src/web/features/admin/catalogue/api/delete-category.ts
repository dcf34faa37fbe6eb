import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "../../../../components/ui/toast";
import { apiRequest, errorMessage } from "../../../../lib/api";
import { catalogueChanged } from "../../shared";

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
    onSettled: () => catalogueChanged(queryClient),
  });
}
