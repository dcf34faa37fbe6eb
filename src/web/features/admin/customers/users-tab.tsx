import { useState } from "react";
import { formatRandText } from "#domain/money.js";
import { formatDate } from "#domain/sa-format.js";
import type { Customer } from "#domain/schemas/customers.js";
import { Button } from "#web/components/ui/button.js";
import { EmptyState, PagedList, SearchField, SectionHeader } from "../shared";
import { useAdminUsers } from "./api/get-users";
import { CustomerView } from "./customer-view";
import { StockHolders } from "./stock-holders";

/** The Users tab: customers newest first, searchable, 50 at a time; a customer opens their page. */
export function UsersTab() {
  const [q, setQ] = useState("");
  const [openId, setOpenId] = useState<string | null>(null);
  if (openId) return <CustomerView id={openId} onBack={() => setOpenId(null)} />;
  return (
    <section aria-labelledby="users-heading">
      <SectionHeader
        id="users-heading"
        title="Users"
        description="Customers and admins, newest first, with their orders and what their paid orders came to."
      />
      <StockHolders onOpen={setOpenId} />
      <SearchField label="Search customers" placeholder="Name, username, e-mail or phone" onSearch={setQ} />
      <CustomerList q={q} onOpen={setOpenId} />
    </section>
  );
}

function CustomerList({ q, onOpen }: { q: string; onOpen: (id: string) => void }) {
  const customers = useAdminUsers(q);
  return (
    <PagedList
      query={customers}
      label="Customers"
      noun={["customer", "customers"]}
      empty={
        <EmptyState title={q ? `No customer matches "${q}"` : "No customers yet"}>
          {q ? "Try part of a name, an e-mail address or a phone number." : "Customers appear here when they sign up."}
        </EmptyState>
      }
      renderItem={(customer) => <CustomerRow customer={customer} onOpen={() => onOpen(customer.id)} />}
    />
  );
}

function CustomerRow({ customer, onOpen }: { customer: Customer; onOpen: () => void }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 px-4 py-3 text-sm md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_6rem_7rem_auto]">
      <div className="min-w-0">
        <p className="font-semibold text-stone-900">
          {customer.fullName}
          {customer.isAdmin === "true" && (
            <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">
              Admin
            </span>
          )}
        </p>
        {!customer.closedAt && <p className="truncate text-stone-600">@{customer.username}</p>}
      </div>
      <Button
        variant="outline"
        className="md:order-5"
        onClick={onOpen}
        aria-label={
          customer.closedAt
            ? `Open the account closed on ${formatDate(customer.closedAt)}`
            : `Open ${customer.fullName} (@${customer.username})`
        }
      >
        Open
      </Button>
      <div className="min-w-0 text-stone-700 md:order-2">
        {customer.closedAt ? (
          <p className="text-stone-600">Closed on {formatDate(customer.closedAt)}</p>
        ) : (
          <>
            <p className="truncate">{customer.email}</p>
            {customer.phone && <p className="text-stone-600">{customer.phone}</p>}
          </>
        )}
      </div>
      <p className="tabular text-stone-700 md:order-3">
        {customer.orderCount} {customer.orderCount === 1 ? "order" : "orders"}
      </p>
      <p className="tabular text-stone-700 md:order-4 md:text-right">
        <span className="font-semibold text-stone-900">{formatRandText(customer.spent)}</span>
        <span className="block text-xs text-stone-600">since {formatDate(customer.createdAt)}</span>
      </p>
    </div>
  );
}
