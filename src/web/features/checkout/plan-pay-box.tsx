import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { formatPlanDay } from "#domain/plans.js";
import type { PlanPayBox } from "#domain/schemas/plans.js";
import { errorMessage } from "#web/lib/api.js";
import { useSession } from "../account";
import { type CartAddition, useCart } from "../cart";
import { productsQueryOptions } from "../catalog";
import { usePlanPayBox } from "../plans";

export type PayBoxState =
  | { kind: "none" }
  | { kind: "login" | "loading" }
  | { kind: "failed"; message: string }
  | { kind: "ready"; box: PlanPayBox };

/**
 * `/checkout?pay=...`, a reminder plan's pay link (docs/decisions/050, "Reminder mode's pay link"):
 * once the plan's customer is signed in, the cart becomes the plan's box (today's catalogue, so
 * create-order finds the cart is the box), priced at plan prices by the checkout.
 */
export function usePlanPayCart(token: string): PayBoxState {
  const { user } = useSession();
  const box = usePlanPayBox(token, Boolean(user));
  const queryClient = useQueryClient();
  const cart = useCart();
  const [filled, setFilled] = useState<{ token: string; problem: string } | null>(null);
  // The box's lines, once today's catalogue is in: they go in when the cart has been emptied.
  const [pending, setPending] = useState<{ additions: CartAddition[]; problem: string } | null>(null);
  // The box goes into the cart once per link, whatever else re-renders the page meanwhile.
  const startedFor = useRef("");

  useEffect(() => {
    if (!box.data || startedFor.current === token) return;
    startedFor.current = token;
    const lines = box.data.lines;
    void queryClient
      .fetchQuery({ ...productsQueryOptions(), staleTime: 0 })
      .then((catalogue) => {
        const additions = lines.flatMap((line): CartAddition[] => {
          const product = catalogue.find((entry) => entry.id === line.productId);
          return product ? [{ product, size: line.size, quantity: line.quantity }] : [];
        });
        const problem =
          additions.length === lines.length
            ? ""
            : "A product of your plan's box is no longer for sale. Change the box in My plans.";
        setPending({ additions, problem });
      })
      .catch((error: unknown) =>
        setFilled({ token, problem: errorMessage(error, "We could not load today's products. Please try again.") }),
      );
  }, [box.data, token, queryClient]);

  // The cart becomes the box: emptied first, then the box's lines added (as Add to Cart adds them).
  const { items, clear, addMany } = cart;
  useEffect(() => {
    if (!pending) return;
    if (items.length > 0) {
      clear();
      return;
    }
    addMany(pending.additions);
    setFilled({ token, problem: pending.problem });
    setPending(null);
  }, [pending, items, clear, addMany, token]);

  if (!token) return { kind: "none" };
  if (!user) return { kind: "login" };
  if (box.isError) return { kind: "failed", message: errorMessage(box.error, "This pay link did not open.") };
  if (!box.data || filled?.token !== token) return { kind: "loading" };
  if (filled.problem) return { kind: "failed", message: filled.problem };
  return { kind: "ready", box: box.data };
}

/** What the checkout says while a pay link's box is not (or cannot be) in the cart. */
export function PlanPayWaiting({ state, onLogIn }: { state: PayBoxState; onLogIn: () => void }) {
  return (
    <div className="mx-auto max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-stone-950">Pay for your plan's box</h1>
        <div className="mt-4 grid gap-4">
          {state.kind === "login" ? (
            <p>
              Please{" "}
              <button type="button" className="font-semibold text-brand-800 underline" onClick={onLogIn}>
                log in
              </button>{" "}
              with the account that has the plan to pay for its box.
            </p>
          ) : state.kind === "failed" ? (
            <p role="alert">{state.message}</p>
          ) : (
            <p role="status">Putting your plan's box in the cart...</p>
          )}
          <Link href="/profile?tab=plans" className="font-medium text-brand-800 underline">
            Open My plans
          </Link>
        </div>
      </div>
    </div>
  );
}

/** The checkout's plain statement of what this payment is. */
export function PlanPayNotice({ box }: { box: PlanPayBox }) {
  return (
    <section
      role="note"
      aria-label="Your nappy plan's box"
      className="rounded-2xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900"
    >
      <h2 className="font-semibold">Paying your nappy plan's box for {formatPlanDay(box.date)}</h2>
      <p className="mt-1">
        Every line at its plan price. Once it is paid, your plan's next box is {box.cadenceWeeks} weeks later.
      </p>
    </section>
  );
}
