import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminPromoCode, PromoCodeInput } from "#domain/schemas/promo.js";
import { toast } from "#web/components/ui/toast.js";
import { apiGet, apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/** GET /api/admin/promo-codes: each code with its paid uses, held uses and what it gave away. */
export function usePromoCodes() {
  return useQuery({
    queryKey: adminKeys.promoCodes(),
    queryFn: () => apiGet<AdminPromoCode[]>("/api/admin/promo-codes"),
    staleTime: 0,
  });
}

/** POST (new) or PUT (id) /api/admin/promo-codes. */
export function useSavePromoCode(id: string | null, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PromoCodeInput) =>
      id
        ? apiRequest<AdminPromoCode>("PUT", `/api/admin/promo-codes/${id}`, input)
        : apiRequest<AdminPromoCode>("POST", "/api/admin/promo-codes", input),
    onSuccess: (saved) => {
      toast({ title: id ? `${saved.code} saved` : `${saved.code} created`, variant: "success" });
      onSaved();
    },
    onError: (error) =>
      toast({ title: "Not saved", description: errorMessage(error, "The code could not be saved."), variant: "error" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.promoCodes() }),
  });
}
