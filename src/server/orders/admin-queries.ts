import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { centsToDecimal } from "#domain/money.js";
import type { OrderStatus } from "#domain/order-status.js";
import { PAID_STATUSES } from "#domain/order-status.js";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  OrderSummary,
  ParsedOrderFilters,
} from "#domain/schemas/admin-orders.js";
import type { AuditEntry } from "#domain/schemas/audit.js";
import { creditNoteNumberText, creditNotePath, invoiceNumberText, invoicePath } from "#domain/tax-documents.js";
import { auditEntryOf } from "../audit/admin-routes.js";
import { subjectFor } from "../mail/subjects.js";
import type { Database } from "../platform/db/client.js";
import { SA_ZONE_LITERAL } from "../platform/db/sa-time.js";
import { auditLog, emails, orderItems, orders, payfastItns, refunds, users } from "../platform/db/schema.js";
import { badRequest } from "../platform/errors.js";
import { issuedDocumentsOf } from "./issued-documents.js";
import { findAdminOrder, listOrders, withPaidBy } from "./queries.js";
import { statusList } from "./status.js";

/**
 * What the admin's search looks in: the customer's e-mail, name and phone (as typed and as digits
 * alone), the delivery suburb and the order number (the id's last 8 characters), lower-cased.
 * Exactly the expression of the trigram index orders_search_trgm_idx (last rebuilt by the migration
 * that added the suburb): change both or the index goes unused.
 */
export const ORDER_SEARCH_TEXT = sql`lower(${orders.customerEmail} || ' ' || ${orders.deliveryName} || ' ' || ${orders.deliveryPhone} || ' ' || regexp_replace(${orders.deliveryPhone}, '[^0-9]+', '', 'g') || ' ' || ${orders.deliverySuburb} || ' ' || right(${orders.id}::text, 8))`;

/** A LIKE pattern that finds `text` anywhere, its own % _ and \ taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The search as typed, made to match ORDER_SEARCH_TEXT: lower case, "#" of an order number dropped. */
export function searchFragment(q: string): string {
  return q.trim().replace(/^#/, "").toLowerCase();
}

function filtersWhere({ status, from, to, q }: ParsedOrderFilters): SQL[] {
  return [
    ...(status ? [eq(orders.status, status)] : []),
    ...(from ? [gte(orders.createdAt, from)] : []),
    ...(to ? [lt(orders.createdAt, to)] : []),
    ...(q ? [sql`${ORDER_SEARCH_TEXT} like ${containing(searchFragment(q))}`] : []),
  ];
}

// --- the cursor: where the previous page ended, (created_at to the microsecond, id) -----------------

const CURSOR = /^(\d{1,17}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function encodeCursor(createdMicros: string, id: string): string {
  return Buffer.from(`${createdMicros}:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { micros: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match?.[1] || !match[2]) throw badRequest("cursor is not valid: give back a nextCursor as it was received");
  return { micros: match[1], id: match[2] };
}

/**
 * One page of orders, newest first, by keyset: the rows after the cursor's (created_at, id) in
 * (created_at desc, id desc) order, so a page costs the same on the first day and after two years,
 * and orders placed meanwhile (newer than the first page) never shift a later page.
 */
export async function listAdminOrderPage(
  db: Database,
  filters: ParsedOrderFilters & { limit: number; cursor?: string | undefined },
): Promise<AdminOrderPage> {
  const after = filters.cursor ? decodeCursor(filters.cursor) : null;
  const where = [
    ...filtersWhere(filters),
    ...(after
      ? [
          sql`(${orders.createdAt}, ${orders.id}) < ('epoch'::timestamptz + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::uuid)`,
        ]
      : []),
  ];
  const rows = await db
    .select({ id: orders.id, micros: sql<string>`(extract(epoch from ${orders.createdAt}) * 1000000)::bigint::text` })
    .from(orders)
    .where(and(...where))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  const ordersOfPage =
    page.length === 0
      ? []
      : await withPaidBy(
          db,
          await listOrders(
            db,
            inArray(
              orders.id,
              page.map((row) => row.id),
            ),
          ),
        );
  return {
    orders: ordersOfPage,
    nextCursor: rows.length > filters.limit && last ? encodeCursor(last.micros, last.id) : null,
  };
}

/** The Orders tab's figures for a range, counted in one statement. */
export async function orderSummary(
  db: Database,
  filters: Pick<ParsedOrderFilters, "from" | "to">,
): Promise<OrderSummary> {
  const count = (status: OrderStatus) => sql<number>`(count(*) filter (where ${orders.status} = ${status}))::int`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pending: count("pending"),
      paid: count("completed"),
      shipped: count("processed"),
      cancelled: count("cancelled"),
      revenueCents: sql<string>`coalesce(sum(${orders.totalCents}) filter (where ${orders.status} in ${statusList(PAID_STATUSES)}), 0)::text`,
    })
    .from(orders)
    .where(and(...filtersWhere(filters)));
  const { revenueCents = "0", ...counts } = row ?? { total: 0, pending: 0, paid: 0, shipped: 0, cancelled: 0 };
  return { ...counts, revenue: centsToDecimal(Number(revenueCents)) };
}

/** How many of an order's audit records its page shows, newest first. */
const ORDER_ACTIVITY_LIMIT = 200;

/** What was done to an order (the audit trail's records about it), newest first; index audit_log_subject_idx. */
async function orderActivity(db: Database, id: string): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "order"), eq(auditLog.subjectId, id)))
    .orderBy(desc(auditLog.id))
    .limit(ORDER_ACTIVITY_LIMIT);
  return rows.map(auditEntryOf);
}

/**
 * One order with its customer, PayFast's notifications about it and the e-mails written about it
 * (a queued one's subject made from the shop's name, as the sender will).
 */
export async function adminOrderDetail(db: Database, id: string, shopName: string): Promise<AdminOrderDetail | null> {
  const [row] = await db
    .select({
      userId: orders.userId,
      paidBy: orders.paidBy,
      shippedAt: orders.shippedAt,
      anonymisedAt: orders.anonymisedAt,
      deliveryVatRateBp: orders.deliveryVatRateBp,
    })
    .from(orders)
    .where(eq(orders.id, id));
  if (!row) return null;
  const [order, customers, payments, sent, activity, lineVat, documents] = await Promise.all([
    findAdminOrder(db, id),
    customerOf(db, row.userId),
    paymentsOf(db, id),
    emailsAbout(db, id),
    orderActivity(db, id),
    lineVatOf(db, id),
    issuedDocumentsOf(db, id),
  ]);
  if (!order) return null;
  return {
    order,
    customer: customers[0] ? { ...customers[0], closedAt: customers[0].closedAt?.toISOString() ?? null } : null,
    paidBy: row.paidBy,
    anonymisedAt: row.anonymisedAt?.toISOString() ?? null,
    shippedAt: row.shippedAt?.toISOString() ?? null,
    payments: payments.map((payment) => ({ ...payment, receivedAt: payment.receivedAt.toISOString() })),
    emails: sent.map(({ data, ...email }) => ({
      ...email,
      subject: subjectFor({ ...email, data }, shopName),
      createdAt: email.createdAt.toISOString(),
      sentAt: email.sentAt?.toISOString() ?? null,
    })),
    activity,
    lineVat,
    deliveryVatRateBp: row.deliveryVatRateBp,
    documents: documents.map((document) => documentLink(id, document)),
  };
}

/** The order's customer account, if it has one: none for a guest's. */
function customerOf(db: Database, userId: string | null) {
  return userId
    ? db
        .select({
          id: users.id,
          username: users.username,
          fullName: users.fullName,
          email: users.email,
          phone: users.phone,
          closedAt: users.closedAt,
        })
        .from(users)
        .where(eq(users.id, userId))
    : Promise.resolve([]);
}

/** PayFast's notifications about the order (and what reconciliation found), oldest first. */
function paymentsOf(db: Database, id: string) {
  return db
    .select({
      id: payfastItns.id,
      receivedAt: payfastItns.receivedAt,
      via: payfastItns.via,
      paymentStatus: payfastItns.paymentStatus,
      amountGross: payfastItns.amountGross,
      pfPaymentId: payfastItns.pfPaymentId,
      outcome: payfastItns.outcome,
      reason: payfastItns.reason,
    })
    .from(payfastItns)
    .where(eq(payfastItns.orderId, id))
    .orderBy(asc(payfastItns.receivedAt), asc(payfastItns.id));
}

/** The e-mails written about the order: its confirmation and dispatch, its returns' and its refunds', oldest first. */
function emailsAbout(db: Database, id: string) {
  return db
    .select({
      id: emails.id,
      kind: emails.kind,
      to: emails.toAddress,
      subject: emails.subject,
      data: emails.data,
      status: emails.status,
      createdAt: emails.createdAt,
      sentAt: emails.sentAt,
    })
    .from(emails)
    .where(
      or(
        and(inArray(emails.kind, ["order_confirmation", "order_shipped"]), eq(emails.eventKey, id)),
        // A return's messages carry the order they are about.
        and(eq(emails.kind, "return_update"), sql`${emails.data}->>'orderId' = ${id}`),
        // A refund's message is keyed by the refund.
        and(
          eq(emails.kind, "order_refunded"),
          inArray(
            emails.eventKey,
            db
              .select({ key: sql<string>`${refunds.id}::text` })
              .from(refunds)
              .where(eq(refunds.orderId, id)),
          ),
        ),
      ),
    )
    .orderBy(asc(emails.createdAt), asc(emails.id));
}

/** Each line's VAT class and rate, in line order, for the page's VAT breakdown. */
function lineVatOf(db: Database, id: string) {
  return db
    .select({ vatClass: orderItems.vatClass, vatRateBp: orderItems.vatRateBp })
    .from(orderItems)
    .where(eq(orderItems.orderId, id))
    .orderBy(asc(orderItems.position));
}

/** An issued invoice or credit note as the order page lists it, with the link that downloads it. */
function documentLink(id: string, document: Awaited<ReturnType<typeof issuedDocumentsOf>>[number]) {
  const number =
    document.kind === "invoice" ? invoiceNumberText(document.number) : creditNoteNumberText(document.number);
  return {
    kind: document.kind,
    number,
    replaces: document.replacesNumber === null ? null : invoiceNumberText(document.replacesNumber),
    issuedAt: document.issuedAt.toISOString(),
    frozen: document.frozen,
    downloads: document.downloads,
    url:
      document.kind === "invoice" ? `${invoicePath(id)}?number=${number}` : creditNotePath(id, document.refundId ?? ""),
  };
}

/**
 * The statement behind the CSV export: one row per order of the range, oldest first, the date
 * already in South African time (UTC+2, no daylight saving), with its lines' prices and VAT rates
 * (the VAT itself is worked out by src/domain/vat.ts, as on the invoice).
 */
export function orderExportStatement(filters: Pick<ParsedOrderFilters, "from" | "to">): {
  text: string;
  values: string[];
} {
  const values: string[] = [];
  const where: string[] = [];
  if (filters.from) where.push(`created_at >= $${values.push(filters.from.toISOString())}::timestamptz`);
  if (filters.to) where.push(`created_at < $${values.push(filters.to.toISOString())}::timestamptz`);
  const text = `select id::text as id, to_char(created_at at time zone ${SA_ZONE_LITERAL}, 'YYYY-MM-DD HH24:MI') as placed,
      delivery_name as customer, customer_email as email, subtotal_cents, discount_cents + multibuy_discount_cents as discount_cents, delivery_fee_cents, total_cents, status, paid_by,
      delivery_vat_rate_bp, vat_rounding, (
        select coalesce(json_agg(json_build_object('unitPriceCents', i.unit_price_cents, 'quantity', i.quantity,
          'vatClass', i.vat_class, 'vatRateBp', i.vat_rate_bp, 'discountCents', i.discount_cents + i.multibuy_discount_cents) order by i.position), '[]')
        from order_items i where i.order_id = orders.id
      ) as lines
    from orders ${where.length ? `where ${where.join(" and ")}` : ""}
    order by created_at, id`;
  return { text, values };
}
