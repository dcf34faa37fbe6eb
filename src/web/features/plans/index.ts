// The plans feature's public face: what other features may use (docs/decisions/050-nappy-plans.md).
// Its components load on demand: nothing of a plan is in the storefront's first load.
import { lazy } from "react";

export { usePlanPayBox } from "./api/pay-link";
export { readPlanWeeks, setPlanWeeks, usePlanWeeks } from "./plan-choice";
export { cartAtPlanPrices } from "./plan-prices";

/** The chooser's own chunk: a product card loads it through this on the first click of its "Deliver every few weeks". */
export const loadPlanOption = () => import("./plan-option");
export const PlanOption = lazy(loadPlanOption);
export const PlanTerms = lazy(() => import("./plan-terms"));
export const MyPlans = lazy(() => import("./my-plans"));
export const PlanSkipPage = lazy(() => import("./skip-page"));
