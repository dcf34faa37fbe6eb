import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import { type PolicyVersion, policyApiPath, policyOfPath, policyPath } from "#domain/policies.js";
import { formatCalendarDate } from "#domain/sa-format.js";
import { ApiError, errorMessage } from "#web/lib/api.js";
import { NotFoundPage } from "./not-found-page";
import { StaticPage } from "./static-page";

/**
 * /terms, /return-policy, /privacy and /paia-manual, and each version at /{kind}/v/{n}: the owner's
 * Markdown as the server rendered it (raw HTML in it is shown as text there), with its date and
 * its earlier versions. The server renders the page with its data (src/server/pages/routes.ts).
 */
export default function PolicyPage() {
  const [location] = useLocation();
  // /terms-and-conditions, the terms' old address, still shows the terms in the browser.
  const target =
    location === "/terms-and-conditions" ? { kind: "terms" as const, version: null } : policyOfPath(location);
  const query = useQuery<PolicyVersion>({
    queryKey: [target ? policyApiPath(target.kind, target.version) : "/api/policies"],
    enabled: target !== null,
  });
  if (!target || (query.error instanceof ApiError && query.error.status === 404)) {
    return <NotFoundPage />;
  }
  if (query.isError) {
    return (
      <p role="alert" className="mx-auto max-w-3xl px-4 py-16 text-stone-700">
        {errorMessage(query.error, "We could not load this page. Please try again.")}
      </p>
    );
  }
  const policy = query.data;
  if (!policy) {
    return (
      <div className="mx-auto grid min-h-[50vh] max-w-3xl place-items-center px-4" role="status">
        <span className="text-stone-600">Loading...</span>
      </div>
    );
  }
  const latest = policy.versions[0];
  const isOld = latest !== undefined && latest.version !== policy.version;
  return (
    <StaticPage
      title={policy.title}
      dateLine={`Effective date: ${formatCalendarDate(policy.effectiveDate)} (version ${policy.version})`}
    >
      {isOld && (
        <p className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          This is an earlier version, kept for the orders placed under it.{" "}
          <Link className="font-medium underline" href={policyPath(policy.kind)}>
            Read the current {policy.title}
          </Link>
          .
        </p>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server's Markdown rendering, with raw HTML escaped (markdown-it, html: false) */}
      <div className="policy-text" dangerouslySetInnerHTML={{ __html: policy.html }} />
      {policy.versions.length > 1 && (
        <section className="mt-10 rounded-xl border border-sand-200 bg-white p-4 text-sm" aria-labelledby="versions">
          <h2 id="versions" className="font-semibold text-stone-950">
            Every version
          </h2>
          <ul className="mt-2 grid gap-1">
            {policy.versions.map((version) => (
              <li key={version.version}>
                {version.version === policy.version ? (
                  <span aria-current="page" className="text-stone-700">
                    Version {version.version}, from {formatCalendarDate(version.effectiveDate)} (this page)
                  </span>
                ) : (
                  <a className="font-medium text-brand-800 underline" href={version.path}>
                    Version {version.version}, from {formatCalendarDate(version.effectiveDate)}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </StaticPage>
  );
}
