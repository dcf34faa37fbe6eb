import { useState } from "react";
import { Link, useParams, useSearch } from "wouter";
import type { AccountMessage } from "#domain/schemas/account.js";
import { Button, buttonClass } from "#web/components/ui/button.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { usePageTitle } from "#web/lib/use-page-title.js";

const ACTIONS = {
  confirm: { title: "Confirm your back-in-stock alert", button: "Confirm the alert" },
  unsubscribe: { title: "Unsubscribe from back-in-stock alerts", button: "Unsubscribe" },
} as const;

/**
 * /stock-alerts/confirm?token=... and /stock-alerts/unsubscribe?token=...: the pages the alert
 * e-mails link to, no login needed. The shopper presses the button (a mail scanner that opens the
 * link does nothing), and the server checks the signed token.
 */
export default function StockAlertPage() {
  const { action } = useParams<{ action: string }>();
  const kind = action === "unsubscribe" ? "unsubscribe" : "confirm";
  const { title, button } = ACTIONS[kind];
  usePageTitle(title);
  const token = new URLSearchParams(useSearch()).get("token")?.trim() ?? "";
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState("");
  const [error, setError] = useState("");

  const send = async () => {
    setSending(true);
    setError("");
    try {
      setDone((await apiRequest<AccountMessage>("POST", `/api/stock-alerts/${kind}`, { token })).message);
    } catch (failure) {
      setError(errorMessage(failure, "That did not work. Please try again."));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="mx-auto max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-balance text-stone-950">{title}</h1>
        <div className="mt-4 grid gap-4">
          {done ? (
            <p role="status" className="text-stone-800">
              {done}
            </p>
          ) : !token ? (
            <p role="alert" className="text-stone-700">
              This link is not complete. Open it from the e-mail again.
            </p>
          ) : (
            <>
              <p className="text-stone-700">
                {kind === "confirm"
                  ? "Press the button to get one e-mail when the size is back in stock."
                  : "Press the button and we send this address no more back-in-stock alerts."}
              </p>
              {error && (
                <p role="alert" className="text-sm font-medium text-red-800">
                  {error}
                </p>
              )}
              <Button onClick={() => void send()} disabled={sending} className="w-full">
                {sending ? "Sending..." : button}
              </Button>
            </>
          )}
          <Link href="/" className={buttonClass({ variant: "outline" })}>
            Back to the shop
          </Link>
        </div>
      </div>
    </div>
  );
}
