import { Link } from "wouter";
import { orderNumber } from "#domain/order-status.js";
import { Button } from "#web/components/ui/button.js";
import { errorMessage } from "#web/lib/api.js";
import { useCreateTodaysWaybills } from "./api/create-waybill";

/**
 * "Create waybills for today's paid orders": every order paid today that has no waybill is booked
 * with its courier, one after another; the answer says how many were booked and, for each that was
 * not, which order and why.
 */
export function TodaysWaybills() {
  const run = useCreateTodaysWaybills();
  const result = run.data;
  return (
    <div className="grid gap-2">
      <div>
        <Button variant="outline" onClick={() => run.mutate()} disabled={run.isPending}>
          {run.isPending ? "Booking waybills..." : "Create waybills for today's paid orders"}
        </Button>
      </div>
      {run.isError && (
        <p role="alert" className="text-sm text-red-900">
          {errorMessage(run.error, "No waybills were created. Try again in a minute.")}
        </p>
      )}
      {result && (
        <div role="status" className="grid gap-1 rounded-lg border border-stone-200 bg-white px-4 py-3 text-sm">
          <p className="font-semibold text-stone-900">
            {result.created.length === 0 && result.failed.length === 0
              ? "Every order paid today already has a waybill (or goes to a Pargo counter)."
              : `${result.created.length} ${result.created.length === 1 ? "waybill" : "waybills"} created${
                  result.failed.length > 0 ? `, ${result.failed.length} not` : ""
                }.`}
          </p>
          {result.failed.length > 0 && (
            <ul className="grid gap-1 text-stone-800">
              {result.failed.map((failure) => (
                <li key={failure.orderId}>
                  <Link
                    href={`/admin/orders/${failure.orderId}`}
                    className="font-semibold text-brand-800 underline underline-offset-2"
                  >
                    Order #{orderNumber(failure.orderId)}
                  </Link>
                  : {failure.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
