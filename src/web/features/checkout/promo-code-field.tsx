import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { CartLine } from "#domain/cart.js";
import type { PromoCheckAnswer } from "#domain/schemas/promo.js";
import { Button } from "#web/components/ui/button.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";

/** POST /api/promo-codes/check: what the code gives this cart, or why not. */
function checkCode(code: string, items: readonly CartLine[]) {
  return apiRequest<PromoCheckAnswer>("POST", "/api/promo-codes/check", {
    code,
    items: items.map((line) => ({ id: line.id, size: line.size, quantity: line.quantity })),
  });
}

const cartKey = (items: readonly CartLine[]) =>
  items.map((line) => `${line.id}:${line.size}:${line.quantity}`).join("|");

/**
 * The checkout's "Promo code" field (loaded lazily: docs/decisions/023). The server checks the code
 * and answers the figures to show, or exactly why it does not apply; the code is checked again
 * whenever the cart changes, and create-order checks it once more and decides.
 */
export default function PromoCodeField({
  items,
  applied,
  onApplied,
}: {
  items: readonly CartLine[];
  applied: PromoCheckAnswer | null;
  onApplied: (answer: PromoCheckAnswer | null) => void;
}) {
  const id = useId();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const key = cartKey(items);
  const checkedFor = useRef(key);

  const apply = async (typed: string) => {
    setChecking(true);
    setError(null);
    try {
      const answer = await checkCode(typed, items);
      checkedFor.current = cartKey(items);
      onApplied(answer);
    } catch (failure) {
      onApplied(null);
      setError(errorMessage(failure, "The code could not be checked. Please try again."));
    } finally {
      setChecking(false);
    }
  };

  // The cart changed under an applied code: its figures are checked again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the cart re-checks
  useEffect(() => {
    if (applied && checkedFor.current !== key) void apply(applied.code);
  }, [key]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) {
      setError("Enter a promo code.");
      return;
    }
    void apply(typed);
  };

  if (applied) {
    return (
      <div className="flex items-center justify-between gap-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
        {applied.applied ? (
          <p role="status">
            Code <span className="font-semibold">{applied.code}</span> applied: {applied.description}
          </p>
        ) : (
          <p role="status">
            Your multi-buy saving is more than <span className="font-semibold">{applied.code}</span> gives (
            {applied.description}), so the code is not used.
          </p>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            onApplied(null);
            setCode("");
          }}
        >
          Remove
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Apply a promo code">
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        Promo code
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="block min-h-11 w-full min-w-0 rounded-lg border border-stone-300 bg-white px-3 text-base uppercase text-stone-900 placeholder:normal-case placeholder:text-stone-500 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-700 aria-[invalid=true]:border-red-600 sm:text-sm"
          placeholder="e.g. WELCOME10"
        />
        <Button type="submit" variant="outline" disabled={checking} className="shrink-0">
          {checking ? "Checking..." : "Apply"}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
