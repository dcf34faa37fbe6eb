import { sql } from "drizzle-orm";
import type { Transaction } from "../platform/db/client.js";

export type DocumentSeries = "invoice" | "credit_note" | "return_request";

/**
 * The next number of a gapless series (docs/decisions/009), taken in the caller's transaction:
 * the counter row stays locked until that transaction ends, so concurrent payments (on any
 * instance) take numbers one after another, and a transaction that rolls back gives its number
 * back. A PostgreSQL sequence would not: nextval() is never rolled back, which leaves gaps.
 */
export async function nextDocumentNumber(tx: Transaction, series: DocumentSeries): Promise<number> {
  const { rows } = await tx.execute<{ last: number }>(sql`
    insert into document_counters (series, last) values (${series}, 1)
    on conflict (series) do update set last = document_counters.last + 1
    returning last`);
  const number = rows[0]?.last;
  if (number === undefined) throw new Error(`document counter ${series} returned nothing`);
  return number;
}

/** Gives an order the next invoice number, in one statement (the paying transaction's last). */
export async function assignInvoiceNumber(tx: Transaction, orderId: string): Promise<void> {
  await tx.execute(sql`
    with next as (
      insert into document_counters (series, last) values ('invoice', 1)
      on conflict (series) do update set last = document_counters.last + 1
      returning last
    )
    update orders set invoice_number = next.last from next where orders.id = ${orderId}`);
}
