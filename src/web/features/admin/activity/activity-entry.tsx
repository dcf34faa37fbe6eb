import { formatDateTime } from "#domain/sa-format.js";
import { AUDIT_ACTION_LABELS, type AuditEntry } from "#domain/schemas/audit.js";

/** A value as the change list shows it: text as it is, anything else as compact JSON. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** What changed, one line per field: "status: pending → completed". */
function Changes({ before, after }: Pick<AuditEntry, "before" | "after">) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (keys.length === 0) return null;
  return (
    <ul className="mt-1 grid gap-0.5 text-xs text-stone-700">
      {keys.map((key) => (
        <li key={key} className="break-words">
          <span className="font-semibold text-stone-800">{key}:</span>{" "}
          {before && key in before && shown(before[key]) !== shown(after?.[key]) ? (
            <>
              <span className="text-stone-600">{shown(before[key])}</span> <span aria-hidden="true">→</span>
              <span className="sr-only">became</span>{" "}
            </>
          ) : null}
          <span>{after && key in after ? shown(after[key]) : "(removed)"}</span>
        </li>
      ))}
    </ul>
  );
}

/** One record of the audit trail: what, who, when, from where, about what, and what changed. */
export function ActivityEntry({ entry }: { entry: AuditEntry }) {
  const security = entry.action.startsWith("auth.");
  return (
    <article className="grid gap-x-4 gap-y-1 px-4 py-3 text-sm md:grid-cols-[11rem_minmax(0,1fr)]">
      <div className="text-stone-600">
        <time dateTime={entry.at} className="block">
          {formatDateTime(entry.at)}
        </time>
        {entry.repeatCount > 1 && entry.lastAt && (
          <span className="block text-xs font-semibold text-amber-900">
            {entry.repeatCount.toLocaleString("en-ZA")} times, the last at{" "}
            <time dateTime={entry.lastAt}>{formatDateTime(entry.lastAt)}</time>
          </span>
        )}
        <span className="font-mono text-xs break-all">{entry.address ?? "unknown address"}</span>
      </div>
      <div className="min-w-0">
        <p className="text-stone-900">
          <span
            className={`mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${
              security ? "bg-amber-100 text-amber-950" : "bg-brand-100 text-brand-900"
            }`}
          >
            {AUDIT_ACTION_LABELS[entry.action] ?? entry.action}
          </span>
          <span className="font-semibold">
            {entry.actorUsername ? `@${entry.actorUsername}` : "Someone not signed in"}
          </span>
          {entry.subjectType && (
            <span className="text-stone-600">
              {" "}
              · {entry.subjectType} <span className="font-mono text-xs break-all">{entry.subjectId}</span>
            </span>
          )}
        </p>
        <Changes before={entry.before} after={entry.after} />
      </div>
    </article>
  );
}
