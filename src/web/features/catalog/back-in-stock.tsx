import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { Product } from "#domain/schemas/catalog.js";
import type { StockAlertAnswer, StockAlertInput } from "#domain/schemas/stock-alerts.js";
import { Button } from "#web/components/ui/button.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { useSession } from "../account";

interface BackInStockProps {
  product: Pick<Product, "id" | "name" | "sizes" | "sizeOutOfStock">;
  /** The sold-out size chosen where the shopper asked; the form offers every sold-out size. */
  size?: string;
  /** Opened by a click on the card's button: a logged-in shopper is subscribed at once (one click). */
  submitAtOnce?: boolean;
}

/**
 * "E-mail me when it's back" for a sold-out size (docs/product.md §10): a logged-in shopper is
 * subscribed with the account's address; anyone else gives an address and confirms it by the
 * e-mailed link. Loaded only when needed (the storefront's first load stays within its budget).
 */
export default function BackInStock({ product, size, submitAtOnce = false }: BackInStockProps) {
  const { user: sessionUser } = useSession();
  // The server renders the page for no one in particular: the first render here must match it
  // (a hydration mismatch otherwise), so the signed-in form appears once the page has started.
  const [started, setStarted] = useState(false);
  useEffect(() => setStarted(true), []);
  const user = started ? sessionUser : null;
  const id = useId();
  const soldOut = product.sizes.filter((option) => product.sizeOutOfStock[option]);
  const [chosen, setChosen] = useState(size && soldOut.includes(size) ? size : (soldOut[0] ?? ""));
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<StockAlertAnswer | null>(null);
  const [error, setError] = useState("");
  const asked = useRef(false);

  const send = async (email?: string) => {
    setSending(true);
    setError("");
    try {
      const body: StockAlertInput = { productId: product.id, size: chosen, ...(user ? {} : { email: email ?? "" }) };
      setAnswer(await apiRequest<StockAlertAnswer>("POST", "/api/stock-alerts", body));
    } catch (failure) {
      setError(errorMessage(failure, "We could not set up the alert. Please try again."));
    } finally {
      setSending(false);
    }
  };

  useEffect(() => {
    if (submitAtOnce && user && !asked.current) {
      asked.current = true;
      void send();
    }
  });

  if (soldOut.length === 0) return null;
  if (answer) {
    return (
      <p role="status" className="rounded-lg bg-brand-50 px-3 py-2 text-sm font-medium text-brand-900">
        {answer.message}
      </p>
    );
  }
  // Read from the form, not from state: what was typed before the page finished loading counts too.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send(String(new FormData(event.currentTarget).get("email") ?? ""));
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-2 rounded-lg border border-stone-200 bg-stone-50 p-3">
      <p className="text-sm font-semibold text-stone-900">Sold out? We will e-mail you once when it is back.</p>
      {soldOut.length > 1 && (
        <div className="grid gap-1">
          <label htmlFor={`${id}-size`} className="text-sm text-stone-700">
            Size to hear about
          </label>
          <select
            id={`${id}-size`}
            value={chosen}
            onChange={(event) => setChosen(event.target.value)}
            className="select-native"
          >
            {soldOut.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      )}
      {!user && (
        <div className="grid gap-1">
          <label htmlFor={`${id}-email`} className="text-sm text-stone-700">
            Your e-mail address
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            name="email"
            required
            className="min-h-11 rounded-lg border border-stone-300 bg-white px-3 text-base text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-700"
          />
          <p className="text-xs text-stone-600">
            We send a link to confirm it first. One e-mail, then the alert ends.{" "}
            <a href="/privacy" className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
              Privacy Policy
            </a>
          </p>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {/* Not before the page has started: a press then would submit the bare form (a reload that
          loses the address typed), as a CI run saw. */}
      <Button type="submit" size="md" variant="outline" disabled={sending || !started} className="w-full">
        {sending ? "Sending..." : "E-mail me when it's back"}
      </Button>
    </form>
  );
}
