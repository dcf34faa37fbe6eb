import { useState } from "react";
import { Button } from "#web/components/ui/button.js";
import { EmptyState, PagedList, SearchField, SectionHeader } from "../shared";
import { ActivityEntry } from "./activity-entry";
import { useAuditTrail } from "./api/get-audit";

/**
 * The Activity tab: the audit trail, newest first. Every admin action and security event, with
 * who did it, when, from which address and what changed (docs/decisions/011-audit-trail.md).
 */
export default function ActivityTab() {
  const [q, setQ] = useState("");
  const entries = useAuditTrail(q);
  return (
    <section aria-labelledby="activity-heading">
      <SectionHeader
        id="activity-heading"
        title="Activity"
        description="Who did what, when and from where: admin actions, logins, lockouts and refused visits to the admin panel."
        action={
          <Button
            variant="outline"
            onClick={() => entries.refetch()}
            disabled={entries.isPending || entries.isRefetching}
          >
            {entries.isRefetching ? "Refreshing..." : "Refresh"}
          </Button>
        }
      />
      <SearchField
        label="Search activity"
        placeholder="Username, action, order or product id, address"
        onSearch={setQ}
      />
      <PagedList
        query={entries}
        label="Activity"
        noun={["entry", "entries"]}
        empty={
          <EmptyState title={q ? `Nothing matches "${q}"` : "No activity yet"}>
            {q ? "Try a username, an order number or part of an address." : "Admin actions and logins appear here."}
          </EmptyState>
        }
        renderItem={(entry) => <ActivityEntry entry={entry} />}
      />
    </section>
  );
}
