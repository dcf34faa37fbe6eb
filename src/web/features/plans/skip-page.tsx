import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearch } from "wouter";
import { Button } from "#web/components/ui/button.js";
import { apiGet, apiRequest, errorMessage } from "#web/lib/api.js";
import { usePageTitle } from "#web/lib/use-page-title.js";

/**
 * /profile?skip=...: the "your next box" e-mail's skip link, no login needed (under /profile, whose
 * page loads on demand, so the storefront's first load carries no route for it). The shopper presses
 * the button (a mail scanner that opens the link skips nothing); the server checks the signed token.
 */
export default function PlanSkipPage() {
  usePageTitle("Skip your next box");
  const token = new URLSearchParams(useSearch()).get("skip")?.trim() ?? "";
  const shown = useQuery({
    queryKey: ["plan-link", token],
    queryFn: () => apiGet<{ message: string }>(`/api/plan-links/skip?token=${encodeURIComponent(token)}`),
    enabled: token !== "",
    retry: false,
  });
  const [done, setDone] = useState("");
  const [error, setError] = useState("");
  const skip = async () => {
    try {
      setDone((await apiRequest<{ message: string }>("POST", "/api/plan-links/skip", { token })).message);
    } catch (failure) {
      setError(errorMessage(failure, "That did not work. Please try again."));
    }
  };
  return (
    <div className="mx-auto max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-stone-950">Skip your next box</h1>
        <div className="mt-4 grid gap-4">
          {done ? (
            <p role="status">{done} Your plan carries on with the box after it.</p>
          ) : shown.isError || error || !token ? (
            <p role="alert">
              {error || errorMessage(shown.error, "This link is not complete. Open it from the e-mail again.")}
            </p>
          ) : (
            <>
              <p className="text-stone-700">{shown.data?.message ?? "Checking the link..."}</p>
              <Button onClick={skip} disabled={!shown.data}>
                Skip this box
              </Button>
            </>
          )}
          <Link href="/profile?tab=plans" replace className="font-medium text-brand-800 underline">
            Open My plans
          </Link>
        </div>
      </div>
    </div>
  );
}
