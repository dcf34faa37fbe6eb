import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CategoryInput } from "#domain/schemas/catalog.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { catalogChanged } from "../../shared";
import type { AdminCategory } from "./get-categories";

/** The body of docs/product.md §7: name and description, the description as "" when absent. */
function categoryBody(input: CategoryInput) {
  return { name: input.name, description: input.description ?? "" };
}

export function createCategory(input: CategoryInput) {
  return apiRequest<AdminCategory>("POST", "/api/admin/categories", categoryBody(input));
}

export function updateCategory(id: string, input: CategoryInput) {
  return apiRequest<AdminCategory>("PUT", `/api/admin/categories/${id}`, categoryBody(input));
}

/** POST /api/admin/categories, or PUT /api/admin/categories/{id} when editing. */
export function useSaveCategory(id: string | null) {
  const queryClient = useQueryClient();
  const verb = id ? "update" : "create";
  return useMutation({
    mutationFn: (input: CategoryInput) => (id ? updateCategory(id, input) : createCategory(input)),
    onSuccess: () => toast({ title: id ? "Category updated" : "Category created", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, `Failed to ${verb} category`), variant: "error" }),
    onSettled: () => catalogChanged(queryClient),
  });
}
