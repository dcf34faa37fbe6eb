import { useState } from "react";
import { Button } from "../../components/ui/button";
import { ActivityEntry } from "./activity-entry";
import { useAuditTrail } from "./api/get-audit";
import { SearchField } from "./search-field";
import { EmptyState, LoadError, LoadingRows, Panel, SectionHeader } from "./ui";

/**
 * The Activity tab: the audit trail, newest first. Every admin action and security event, with
 * who did it, when, from which address and what changed (docs/decisions/011-audit-trail.md).
 */
export default function ActivityTab() {
  const [q, setQ] = useState("");
  const {
    data: entries,
    isPending,
    isError,
    refetch,
    isRefetching,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = useAuditTrail(q);
  return (
    <section aria-labelledby="activity-heading">
      <SectionHeader
        id="activity-heading"
        title="Activity"
        description="Who did what, when and from where: admin actions, logins, lockouts and refused visits to the admin panel."
        action={
          <Button variant="outline" onClick={() => refetch()} disabled={isPending || isRefetching}>
            {isRefetching ? "Refreshing..." : "Refresh"}
          </Button>
        }
      />
      <SearchField
        label="Search activity"
        placeholder="Username, action, order or product id, address"
        onSearch={setQ}
      />
      {isPending ? (
        <LoadingRows label="Loading activity" />
      ) : isError ? (
        <LoadError what="the activity" onRetry={() => refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title={q ? `Nothing matches "${q}"` : "No activity yet"}>
          {q ? "Try a username, an order number or part of an address." : "Admin actions and logins appear here."}
        </EmptyState>
      ) : (
        <>
          <Panel>
            <ul aria-label="Activity" className="divide-y divide-stone-100">
              {entries.map((entry) => (
                <li key={entry.id}>
                  <ActivityEntry entry={entry} />
                </li>
              ))}
            </ul>
          </Panel>
          {hasNextPage && (
            <Button variant="outline" className="mt-4" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? "Loading..." : "Load more"}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
