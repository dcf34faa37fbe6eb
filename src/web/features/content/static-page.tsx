import type { ReactNode } from "react";
import { Link } from "wouter";
import { buttonClass } from "#web/components/ui/button.js";
import { ArrowLeftIcon } from "#web/components/ui/icons.js";
import { usePageTitle } from "#web/lib/use-page-title.js";

function BackToStore({ className = "" }: { className?: string }) {
  return (
    <Link href="/" className={buttonClass({ variant: "outline", className })}>
      <ArrowLeftIcon className="size-4" />
      Back to Store
    </Link>
  );
}

/** The frame of the return policy and terms pages: title, date, readable text, Back to Store. */
export function StaticPage({ title, dateLine, children }: { title: string; dateLine: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <BackToStore />
      <header className="mt-8 border-b border-sand-200 pb-6">
        <h1 className="text-3xl font-bold text-stone-950 sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-stone-600">{dateLine}</p>
      </header>
      <div className="mt-6">{children}</div>
      <div className="mt-12 border-t border-sand-200 pt-6">
        <BackToStore />
      </div>
    </article>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-8">
      <h2 className="text-xl font-semibold text-stone-950">{title}</h2>
      <div className="mt-3 grid gap-3 leading-relaxed text-stone-700">{children}</div>
    </section>
  );
}

export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <ul className="grid list-disc gap-2 pl-5 marker:text-brand-700">
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static text in a fixed order
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}
