import { and, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { retentionCutoff } from "#domain/retention.js";
import { RETURN_UPDATE_STEPS } from "../mail/messages.js";
import { anonymiseIssuedDocuments } from "../orders/issued-documents.js";
import { recordSystemAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { orders, payfastItns } from "../platform/db/schema.js";

/** The pg-boss queue of the daily run (platform/jobs/engine.ts). */
export const RETENTION_JOB = "retention";

/** What an anonymised order shows where its delivery details were. */
export const ANONYMISED_NAME = "Anonymised";

/** Orders anonymised per statement: a big first run takes many short locks, not one long one. */
const BATCH = 1_000;

export interface RetentionRun {
  /** Orders placed before this moment were due. */
  cutoff: Date;
  anonymised: number;
  /** Stored PayFast notifications whose payer's name, e-mail and phone were taken out. */
  notifications: number;
}

/**
 * The fields of a PayFast notification that name the payer: the ITN echoes what the shop's form
 * sent (payfast/adapter.ts). Their values are emptied; the names stay so the row still reads.
 */
const PAYER_FIELDS = "name_first|name_last|email_address|cell_number";

/**
 * Takes the payer's name, e-mail and phone out of the stored PayFast notifications `which` selects
 * (a condition on payfast_itns). What the books need stays: the amounts, PayFast's payment id,
 * the status and outcome are columns of their own. A notification already emptied is left alone,
 * so a second run changes nothing. Its signature no longer matches, which nothing checks again
 * once it was recorded. Answers how many were changed.
 */
export async function anonymisePayfastNotifications(tx: Transaction, which: SQL): Promise<number> {
  const { rowCount } = await tx.execute(sql`
    update payfast_itns set
      raw_body = regexp_replace(raw_body, ${`(^|&)(${PAYER_FIELDS})=[^&]*`}, ${"\\1\\2="}, 'g')
    where raw_body ~ ${`(^|&)(${PAYER_FIELDS})=[^&]`} and (${which})`);
  return rowCount ?? 0;
}

/**
 * The retention job (POPIA s14): replaces the delivery details (name, phone, e-mail, address,
 * company) of every order whose retention ended, RETENTION_YEARS after the end of the tax year it
 * was placed in and the months until that year's return is due (src/domain/retention.ts), and the
 * payer's details in the PayFast notifications stored with it; a notification that names no order
 * of the shop goes when an order received with it would. The order itself stays, with its lines, amounts,
 * statuses and invoice number: the shop's books still add up. Each batch and its audit record
 * commit together; an order is done once (`anonymised_at`), so a second run, or two at once,
 * changes nothing more. Says what it did in the log and the audit trail.
 */
export async function anonymiseExpiredOrders(
  db: Database,
  { years, now = new Date(), log, source }: { years: number; now?: Date; log: FastifyBaseLogger; source: string },
): Promise<RetentionRun> {
  const cutoff = retentionCutoff(now, years);
  let anonymised = 0;
  let notifications = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const due = tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(isNull(orders.anonymisedAt), lt(orders.createdAt, cutoff)))
        .orderBy(orders.createdAt)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      const rows = await tx
        .update(orders)
        .set({
          deliveryName: ANONYMISED_NAME,
          deliveryPhone: "",
          customerEmail: "",
          deliveryAddress: "",
          deliveryCity: "",
          deliveryZipCode: "",
          deliverySuburb: "",
          deliveryComplex: "",
          deliveryInstructions: "",
          deliveryAltPhone: "",
          companyName: null,
          vatNumber: null,
          anonymisedAt: sql`now()`,
        })
        .where(inArray(orders.id, due))
        .returning({ id: orders.id, createdAt: orders.createdAt });
      if (rows.length > 0) {
        const ids = rows.map((row) => row.id);
        await anonymiseOrderMessages(tx, ids);
        await anonymiseIssuedDocuments(tx, ids, ANONYMISED_NAME);
        const stored = await anonymisePayfastNotifications(tx, inArray(payfastItns.orderId, ids));
        notifications += stored;
        const placed = rows.map((row) => row.createdAt.getTime());
        await recordSystemAudit(
          tx,
          {
            action: "retention.orders_anonymised",
            subject: { type: "retention", id: now.toISOString().slice(0, 10) },
            after: {
              orders: rows.length,
              payfastNotifications: stored,
              years,
              placedBefore: cutoff.toISOString(),
              oldest: new Date(Math.min(...placed)).toISOString(),
              newest: new Date(Math.max(...placed)).toISOString(),
            },
          },
          source,
        );
      }
      return rows.length;
    });
    anonymised += done;
    if (done < BATCH) break;
  }
  notifications += await anonymiseOrphanNotifications(db, { now, cutoff, years, source });
  log.info(
    { anonymised, notifications, years, placedBefore: cutoff.toISOString() },
    anonymised > 0 ? "retention: old orders' delivery details anonymised" : "retention: no order due",
  );
  return { cutoff, anonymised, notifications };
}

/**
 * Notifications that belong to no order of the shop (an unknown or missing m_payment_id) are kept
 * as long as an order received with them would be.
 */
async function anonymiseOrphanNotifications(
  db: Database,
  { now, cutoff, years, source }: { now: Date; cutoff: Date; years: number; source: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const changed = await anonymisePayfastNotifications(
      tx,
      sql`received_at < ${cutoff} and (order_id is null or not exists (select 1 from orders o where o.id = order_id))`,
    );
    if (changed > 0) {
      await recordSystemAudit(
        tx,
        {
          action: "retention.orders_anonymised",
          subject: { type: "retention", id: now.toISOString().slice(0, 10) },
          after: { orders: 0, payfastNotifications: changed, years, placedBefore: cutoff.toISOString() },
        },
        source,
      );
    }
    return changed;
  });
}

/**
 * The outbox keeps a copy of each order's delivery details in its messages (the confirmation, the
 * shipping and refund notices, the return updates): they go with the order's. The address and the
 * name in the message's data are replaced as on the order, and the stored rendering is dropped (the
 * admin's view renders it again from what is left), so no copy outlives the retention period.
 */
async function anonymiseOrderMessages(tx: Transaction, orderIds: readonly string[]): Promise<void> {
  const ids = sql.join(
    orderIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`
    update emails set
      to_address = '',
      data = data
        || case when data ? 'customerName' then jsonb_build_object('customerName', ${ANONYMISED_NAME}::text) else '{}'::jsonb end
        || case when jsonb_typeof(data->'delivery') = 'object' then jsonb_build_object('delivery',
             (data->'delivery') || jsonb_build_object('name', ${ANONYMISED_NAME}::text, 'phone', '', 'address', '',
               'city', '', 'zipCode', '', 'suburb', '', 'complex', '', 'deliveryInstructions', '', 'altPhone', ''))
           else '{}'::jsonb end,
      html = null, text_body = null
    where (kind in ('order_confirmation', 'order_shipped') and event_key in (${ids}))
      or (kind = 'order_refunded' and event_key in (select id::text from refunds where order_id in (${ids})))
      or (kind = 'return_update' and event_key in (
        select r.id::text || ':' || step from return_requests r, unnest(${`{${RETURN_UPDATE_STEPS.join(",")}}`}::text[]) step
        where r.order_id in (${ids})))`);
}
