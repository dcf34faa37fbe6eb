import type { ButtonHTMLAttributes, ReactNode } from "react";
import { ORDER_STATUS_LABELS, type OrderStatus } from "../../../domain/order-status";
import { buttonClass as sharedButtonClass } from "../../components/ui/button";

/** The shop's buttons, plus a quiet red outline for the Delete of every list row. */
export const buttonClass = {
  primary: sharedButtonClass({ variant: "primary" }),
  secondary: sharedButtonClass({ variant: "outline" }),
  danger:
    "inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-red-300 bg-white px-4 text-sm font-semibold text-red-700 transition-colors duration-150 hover:border-red-400 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60",
} as const;

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof buttonClass }) {
  return <button type={type} className={`${buttonClass[variant]} ${className}`} {...props} />;
}

export const inputClass =
  "block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-700 aria-[invalid=true]:border-red-600";

const statusClass: Record<OrderStatus, string> = {
  pending: "bg-amber-100 text-amber-900 ring-amber-300",
  completed: "bg-blue-100 text-blue-900 ring-blue-300",
  processed: "bg-green-100 text-green-900 ring-green-300",
  cancelled: "bg-stone-100 text-stone-800 ring-stone-300",
};

const statusDot: Record<OrderStatus, string> = {
  pending: "bg-amber-500",
  completed: "bg-blue-600",
  processed: "bg-green-600",
  cancelled: "bg-stone-500",
};

/** Needs Payment (amber), Paid - Ready to Ship (blue), Shipped (green). */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${statusClass[status]}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${statusDot[status]}`} />
      {ORDER_STATUS_LABELS[status]}
    </span>
  );
}

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <dt className="text-sm font-medium text-stone-600">{label}</dt>
      <dd className="tabular mt-1 text-2xl font-bold text-stone-900">{value}</dd>
      {hint && <dd className="mt-1 text-xs text-stone-600">{hint}</dd>}
    </div>
  );
}

export function Panel({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-xl border border-stone-200 bg-white shadow-sm ${className}`}>{children}</div>;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-stone-300 bg-white/60 px-6 py-10 text-center">
      <p className="font-semibold text-stone-800">{title}</p>
      {children && <div className="mt-1 text-sm text-stone-600">{children}</div>}
    </div>
  );
}

export function LoadingRows({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={label} className="grid gap-3">
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={index} className="skeleton h-24 rounded-xl bg-stone-200/70" />
      ))}
    </div>
  );
}

export function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-4 text-sm text-red-900">
      <p className="font-semibold">Could not load {what}.</p>
      <p className="mt-1">Check your connection and try again.</p>
      <Button variant="secondary" className="mt-3" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function SectionHeader({
  id,
  title,
  description,
  action,
}: {
  id?: string;
  title: string;
  description?: string;
  action?: ReactNode;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
      <div className="max-w-prose">
        <h2 id={id} className="text-lg font-bold text-stone-900">
          {title}
        </h2>
        {description && <p className="text-sm text-stone-600">{description}</p>}
      </div>
      {action}
    </div>
  );
}
