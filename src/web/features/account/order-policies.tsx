import { formatCalendarDate } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";

/** The versions of the terms, return policy and privacy policy the order was placed under, each at its own address. */
export function OrderPolicies({ order }: { order: Order }) {
  if (order.policies.length === 0) return null;
  return (
    <p className="mt-3 text-sm text-stone-600">
      Placed under our{" "}
      {order.policies.map((policy, index) => (
        <span key={policy.path}>
          {index > 0 && (index === order.policies.length - 1 ? " and " : ", ")}
          <a className="font-medium text-brand-800 underline" href={policy.path}>
            {policy.title}
          </a>{" "}
          (version {policy.version}, {formatCalendarDate(policy.effectiveDate)})
        </span>
      ))}
      .
    </p>
  );
}
