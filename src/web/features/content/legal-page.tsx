import { useQuery } from "@tanstack/react-query";
import { LEGAL_API, type LegalPage as LegalFacts } from "#domain/policies.js";
import { errorMessage } from "#web/lib/api.js";
import { StaticPage } from "./static-page";

/**
 * /legal: every item ECTA s43(1) asks an online shop to show, from the shop's configuration and
 * its own facts (src/server/policies/legal.ts). The server renders it with its data.
 */
export default function LegalPage() {
  const query = useQuery<LegalFacts>({ queryKey: [LEGAL_API] });
  if (query.isError) {
    return (
      <p role="alert" className="mx-auto max-w-3xl px-4 py-16 text-stone-700">
        {errorMessage(query.error, "We could not load this page. Please try again.")}
      </p>
    );
  }
  const legal = query.data;
  if (!legal) {
    return (
      <div className="mx-auto grid min-h-[50vh] max-w-3xl place-items-center px-4" role="status">
        <span className="text-stone-600">Loading...</span>
      </div>
    );
  }
  return (
    <StaticPage title="Legal" dateLine={`${legal.seller}: who we are and how we trade`}>
      {legal.demo && (
        <p className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          These are a demo business's details. The shop's owner sets the real ones (SHOP_LEGAL_NAME and the other SHOP_
          settings) before taking real payments.
        </p>
      )}
      <p className="leading-relaxed text-stone-700">
        The Electronic Communications and Transactions Act (section 43) asks every online shop to give you these
        details. Save or print this page to keep them.
      </p>
      <dl className="mt-6 divide-y divide-sand-200 border-y border-sand-200">
        {legal.items.map((item) => (
          <div key={item.item} className="grid gap-1 py-4 sm:grid-cols-[14rem_1fr] sm:gap-6">
            <dt className="font-semibold text-stone-950">{item.title}</dt>
            <dd className="grid gap-2 leading-relaxed text-stone-700">
              {item.text.map((sentence) => (
                <p key={sentence}>{sentence}</p>
              ))}
              {item.links && (
                <p className="flex flex-wrap gap-x-4 gap-y-1">
                  {item.links.map((link) => (
                    <a key={link.href} className="font-medium text-brand-800 underline" href={link.href}>
                      {link.label}
                    </a>
                  ))}
                </p>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </StaticPage>
  );
}
