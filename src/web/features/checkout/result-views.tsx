import type { ReactNode } from "react";
import { Link } from "wouter";
import { buttonClass } from "#web/components/ui/button.js";

/** The pieces of /success and /thank-you: one card, a round icon, a status pill and the links out. */

export type Tone = "brand" | "amber" | "red";

const iconTone: Record<Tone, string> = {
  brand: "bg-brand-100 text-brand-800",
  amber: "bg-amber-100 text-amber-900",
  red: "bg-red-100 text-red-800",
};

const pillTone: Record<Tone, string> = {
  brand: "bg-blue-50 text-blue-900",
  amber: "bg-amber-50 text-amber-900",
  red: "bg-red-50 text-red-900",
};

const ICON_PATHS = {
  check: "M5 12.5l4.5 4.5L19 7.5",
  cross: "M7 7l10 10M17 7L7 17",
  clock: "M12 7v5l3 2M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z",
  question: "M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7v.5M12 17v.1",
} as const;

export function ResultIcon({ shape, tone }: { shape: keyof typeof ICON_PATHS; tone: Tone }) {
  return (
    <div className={`mx-auto grid size-16 place-items-center rounded-full ${iconTone[tone]}`}>
      <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
        <path
          d={ICON_PATHS[shape]}
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </div>
  );
}

export function Spinner() {
  return (
    <svg viewBox="0 0 24 24" width="40" height="40" className="mx-auto animate-spin text-brand-700" aria-hidden="true">
      <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path d="M22 12a10 10 0 0 0-10-10" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

export function StatusPill({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <p className={`mt-2 inline-block rounded-full px-3 py-1 text-sm font-medium ${pillTone[tone]}`}>{children}</p>;
}

/** The page's card. Its body is a polite live region: a screen reader hears the payment's news as it arrives. */
export function ResultCard({ children, actions }: { children: ReactNode; actions: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 text-center shadow-sm sm:p-10">
        <div aria-live="polite">{children}</div>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{actions}</div>
      </div>
    </div>
  );
}

export function OrderNumberLine({ number }: { number: string }) {
  return (
    <p className="mt-3 text-sm text-stone-600">
      Order number: <strong className="tabular font-semibold text-stone-800">{number}</strong>
    </p>
  );
}

export function RetryPaymentLink() {
  return (
    <Link href="/checkout" className={buttonClass({ size: "lg" })}>
      Retry Payment
    </Link>
  );
}

export function ContinueShoppingLink({ primary = false }: { primary?: boolean }) {
  return (
    <Link href="/" className={buttonClass({ variant: primary ? "primary" : "outline", size: "lg" })}>
      Continue Shopping
    </Link>
  );
}
