import { useMutation } from "@tanstack/react-query";
import type { PasswordConfirmInput } from "#domain/schemas/privacy.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { publicConfig } from "#web/lib/public-config.js";

export function downloadMyData(values: PasswordConfirmInput) {
  return apiRequest<unknown>("POST", "/api/account/data-export", values);
}

/** Hands the export to the browser as a file, named after the shop and the day. */
function saveAsFile(data: unknown) {
  const day = new Date().toISOString().slice(0, 10);
  const shop = publicConfig.name.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase();
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${shop}-my-data-${day}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** POST /api/account/data-export: everything the shop holds about the account, saved as one JSON file. */
export function useDownloadMyData({ onSuccess }: { onSuccess: () => void }) {
  return useMutation({
    mutationFn: downloadMyData,
    onSuccess: (data) => {
      saveAsFile(data);
      onSuccess();
      toast({
        title: "Your data is downloading",
        description: "One JSON file with everything we hold about you.",
        variant: "success",
      });
    },
    onError: (error) =>
      toast({
        title: "Not downloaded",
        description: errorMessage(error, "We could not prepare your data. Please try again."),
        variant: "error",
      }),
  });
}
