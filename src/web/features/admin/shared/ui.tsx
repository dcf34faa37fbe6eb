import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button.js";

export const inputClass =
  "block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-700 aria-[invalid=true]:border-red-600";

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <dt className="text-sm font-medium text-stone-600">{label}</dt>
      <dd className="tabular mt-1 text-xl font-bold text-stone-900 sm:text-2xl">{value}</dd>
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
      <Button variant="outline" className="mt-3" onClick={onRetry}>
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
