import { useSyncExternalStore } from "react";
import { PLAN_CADENCE_MAX_WEEKS, PLAN_CADENCE_MIN_WEEKS } from "#domain/limits.js";

/** The shopper's "Deliver every N weeks" for the cart, kept in the tab's storage until checkout (null: a one-off order). */
const KEY = "plan_choice";
const listeners = new Set<() => void>();

export function readPlanWeeks(): number | null {
  try {
    const weeks = Number(sessionStorage.getItem(KEY));
    return Number.isInteger(weeks) && weeks >= PLAN_CADENCE_MIN_WEEKS && weeks <= PLAN_CADENCE_MAX_WEEKS ? weeks : null;
  } catch {
    return null;
  }
}

export function setPlanWeeks(weeks: number | null): void {
  try {
    if (weeks === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, String(weeks));
  } catch {}
  for (const listener of listeners) listener();
}

/** The cart's plan cadence, shared by the product page, the cart and the checkout. */
export function usePlanWeeks(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readPlanWeeks,
    () => null,
  );
}
