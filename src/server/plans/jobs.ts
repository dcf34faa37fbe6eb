import type { FastifyBaseLogger } from "fastify";
import type { RecurringJob } from "../platform/jobs/engine.js";
import { type ChargeRunSummary, chargeDuePlans, PLAN_CHARGE_JOB, type PlanChargeContext } from "./charge.js";
import { settleUnknownCharges } from "./reconcile-charges.js";
import { checkPlanTokens, PLAN_TOKEN_CHECK_JOB } from "./token-check.js";

/** The charging round every this often (docs/decisions/050, "Charging"). */
const CHARGE_EVERY_MS = 15 * 60_000;

export interface PlanChargingRuns {
  /** The charging round now, for `today` or the real South African day. */
  charge: (today?: string) => Promise<ChargeRunSummary>;
  /** Charges in doubt settled from PayFast's history (also a step of the reconciliation job). */
  settleCharges: () => Promise<{ paid: number; notPaid: number; open: number }>;
  /** Each open card plan's agreement fetched from PayFast; answers how many plans it ended. */
  checkTokens: () => Promise<number>;
}

/** The plans' money runs (app.plans): each run idempotent, each safe on several instances at once. */
export function planChargingRuns(
  context: PlanChargeContext & {
    reconcile: (orderIds: readonly string[]) => Promise<unknown>;
    wakeMail: () => void;
  },
): PlanChargingRuns {
  return {
    charge: async (today) => {
      const summary = await chargeDuePlans(context, today);
      if (summary.declined + summary.needsCard + summary.outOfStock > 0) context.wakeMail();
      return summary;
    },
    settleCharges: () => settleUnknownCharges(context),
    checkTokens: () => checkPlanTokens(context.db, context.api, context.log),
  };
}

/** The charging round every CHARGE_EVERY_MS and the daily token check, on the jobs engine. */
export function planChargingJobs(run: PlanChargingRuns, log: FastifyBaseLogger): RecurringJob[] {
  return [
    {
      name: PLAN_CHARGE_JOB,
      everyMs: CHARGE_EVERY_MS,
      firstRunAfterMs: 60_000,
      run: async () => {
        const summary = await run.charge();
        log.info(summary, "nappy plan charging round");
      },
    },
    {
      name: PLAN_TOKEN_CHECK_JOB,
      everyMs: 86_400_000,
      firstRunAfterMs: 5 * 60_000,
      run: async () => void (await run.checkTokens()),
    },
  ];
}
