import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DeliveryBox, DeliveryBoxesAnswer, DeliveryBoxInput } from "#domain/schemas/delivery-admin.js";
import { toast } from "#web/components/ui/toast.js";
import { apiGet, apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/** GET /api/admin/delivery/boxes: the owner's boxes (or the defaults while none are set), smallest first. */
export function useDeliveryBoxes() {
  return useQuery({
    queryKey: adminKeys.deliveryBoxes(),
    queryFn: () => apiGet<DeliveryBoxesAnswer>("/api/admin/delivery/boxes"),
  });
}

/** POST /api/admin/delivery/boxes, or PUT /api/admin/delivery/boxes/{code} when `code` names the box changed. */
export function useSaveDeliveryBox(code: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeliveryBoxInput) =>
      code
        ? apiRequest<DeliveryBox>("PUT", `/api/admin/delivery/boxes/${encodeURIComponent(code)}`, input)
        : apiRequest<DeliveryBox>("POST", "/api/admin/delivery/boxes", input),
    onSuccess: () => toast({ title: code ? "Box changed" : "Box added", variant: "success" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.deliveryBoxes() }),
  });
}

/** DELETE /api/admin/delivery/boxes/{code} (the caller asks first). */
export function useDeleteDeliveryBox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiRequest<void>("DELETE", `/api/admin/delivery/boxes/${encodeURIComponent(code)}`),
    onSuccess: () => toast({ title: "Box removed", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to remove the box"), variant: "error" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.deliveryBoxes() }),
  });
}
