import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ConsentChoiceInput, ConsentsAnswer } from "#domain/schemas/privacy.js";
import { toast } from "#web/components/ui/toast.js";
import { apiGet, apiRequest, errorMessage } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** GET /api/account/consents (the query key is the URL: app/query-client.ts). */

export function useMarketingConsents() {
  return useQuery(
    queryOptions({ queryKey: accountKeys.consents(), queryFn: () => apiGet<ConsentsAnswer>("/api/account/consents") }),
  );
}

export function updateMarketingConsent(choice: ConsentChoiceInput) {
  return apiRequest<ConsentsAnswer>("PUT", "/api/account/consents", choice);
}

/** PUT /api/account/consents: the server records the change with the words shown and answers the consents as they stand. */
export function useUpdateMarketingConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMarketingConsent,
    onSuccess: (answer, choice) => {
      queryClient.setQueryData(accountKeys.consents(), answer);
      toast({
        title: choice.granted ? "You will hear about news and offers" : "No more news and offers",
        description: choice.granted
          ? "You can stop them here at any time."
          : "Order e-mails still come, as they are part of your orders.",
        variant: "success",
      });
    },
    onError: (error) =>
      toast({
        title: "Not saved",
        description: errorMessage(error, "We could not save your choice. Please try again."),
        variant: "error",
      }),
  });
}
