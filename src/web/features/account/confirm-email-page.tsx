import { useMutation } from "@tanstack/react-query";
import { Link, useSearch } from "wouter";
import type { AccountMessage } from "#domain/schemas/account.js";
import { Button, buttonClass } from "#web/components/ui/button.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { usePageTitle } from "#web/lib/use-page-title.js";

/**
 * /confirm-email?token=...: the page the link mailed to a new address opens. The address changes
 * only when its owner presses Confirm (a mail scanner that opens the link changes nothing).
 */
export default function ConfirmEmailPage() {
  usePageTitle("Confirm your new e-mail address");
  const token = new URLSearchParams(useSearch()).get("token")?.trim() ?? "";
  const confirm = useMutation({
    mutationFn: () => apiRequest<AccountMessage>("POST", "/api/auth/confirm-email", { token }),
  });
  return (
    <section className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-stone-950">Confirm your new e-mail address</h1>
        {confirm.isSuccess ? (
          <>
            <p role="status" className="mt-3 text-stone-700">
              {confirm.data.message}
            </p>
            <Link href="/profile" className={buttonClass({ size: "lg", className: "mt-6 w-full" })}>
              Go to My Account
            </Link>
          </>
        ) : !token ? (
          <p role="alert" className="mt-3 text-stone-700">
            This link is not complete. Change your address again from My Account.
          </p>
        ) : (
          <>
            <p className="mt-3 text-stone-700">Use this address for your account from now on?</p>
            {confirm.isError && (
              <p role="alert" className="mt-3 text-sm text-red-800">
                {errorMessage(confirm.error, "This link no longer works.")}
              </p>
            )}
            <Button size="lg" className="mt-6 w-full" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
              {confirm.isPending ? "Confirming..." : "Confirm this address"}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
