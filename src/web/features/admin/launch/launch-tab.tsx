import { useState } from "react";
import { formatDateTime } from "#domain/sa-format.js";
import type { LaunchItem } from "#domain/schemas/launch-checklist.js";
import { buttonClass } from "#web/components/ui/button.js";
import { LoadError, LoadingRows, Panel, SectionHeader } from "../shared";
import { LAUNCH_CHECKLIST_CSV_URL, useLaunchChecklist, useSetLaunchItem } from "./api/launch-checklist";

/**
 * "Before you open": what the law asks of the owner outside the software, from the owner's
 * content/launch-checklist.md, each with its source and a tick the owner sets (docs/decisions/039).
 */
export default function LaunchTab() {
  const { data, isPending, isError, refetch } = useLaunchChecklist();
  if (isPending) return <LoadingRows label="Loading the checklist" />;
  if (isError) return <LoadError what="the checklist" onRetry={() => refetch()} />;
  const total = data.items.length;
  const done = total - data.open;
  return (
    <section aria-labelledby="launch-heading">
      <SectionHeader
        id="launch-heading"
        title={data.title}
        action={
          <a className={buttonClass({ variant: "outline" })} href={LAUNCH_CHECKLIST_CSV_URL} download>
            Download CSV
          </a>
        }
      />
      <div
        className="policy-text -mt-2 mb-4 max-w-prose text-sm"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's Markdown rendering of the owner's file, raw HTML escaped (markdown-it, html: false)
        dangerouslySetInnerHTML={{ __html: data.introHtml }}
      />
      <div className="mb-4 grid gap-2">
        <p className="text-sm font-semibold text-stone-800">
          <span className="tabular">
            {done} of {total}
          </span>{" "}
          done
        </p>
        <div className="h-2 overflow-hidden rounded-full bg-stone-200" aria-hidden="true">
          <div className="h-full rounded-full bg-brand-700" style={{ width: `${total ? (done / total) * 100 : 0}%` }} />
        </div>
        {data.live && data.open > 0 && (
          <p className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
            The shop is live and takes real money: finish the items not ticked yet.
          </p>
        )}
      </div>
      <ol className="grid gap-3">
        {data.items.map((item) => (
          <li key={item.id}>
            <LaunchDuty item={item} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function LaunchDuty({ item }: { item: LaunchItem }) {
  const setItem = useSetLaunchItem();
  // The box shows what the owner asked for at once, while the server saves it; a refusal puts it back.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const saving = wanted !== null;
  const checked = wanted ?? item.done;
  const checkboxId = `launch-${item.id}`;
  return (
    <Panel className={`p-4 ${item.done ? "border-brand-200 bg-brand-50/40" : ""}`}>
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          checked={checked}
          aria-busy={saving}
          aria-describedby={`${checkboxId}-source`}
          onChange={(event) => {
            if (saving) return;
            const done = event.target.checked;
            setWanted(done);
            setItem.mutate({ id: item.id, done }, { onSettled: () => setWanted(null) });
          }}
          className="mt-0.5 size-6 shrink-0 accent-brand-700"
        />
        <div className="min-w-0 flex-1">
          <label htmlFor={checkboxId} className="block min-h-6 font-semibold text-stone-900">
            {item.title}
          </label>
          <p id={`${checkboxId}-source`} className="mt-1 text-xs text-stone-600">
            <span className="font-semibold text-stone-700">Source:</span> {item.source}
          </p>
          <div
            className="policy-text text-sm [&>p:first-child]:mt-2"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's Markdown rendering of the owner's file, raw HTML escaped (markdown-it, html: false)
            dangerouslySetInnerHTML={{ __html: item.html }}
          />
          {item.changedAt && item.changedBy && (
            <p className="mt-3 text-xs text-stone-600">
              {item.done ? "Ticked" : "Unticked"} by {item.changedBy},{" "}
              <time dateTime={item.changedAt}>{formatDateTime(item.changedAt)}</time>
            </p>
          )}
        </div>
      </div>
    </Panel>
  );
}
