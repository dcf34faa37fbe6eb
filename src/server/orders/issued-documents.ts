import { and, desc, eq, sql } from "drizzle-orm";
import { creditNoteNumberText, invoiceNumberText } from "#domain/tax-documents.js";
import type { CopyMark } from "../documents/pdf.js";
import type { CreditNoteData, DocumentCustomer, InvoiceData } from "../documents/types.js";
import type { Config } from "../platform/config.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { issuedDocuments, orders, refunds } from "../platform/db/schema.js";
import { badRequest } from "../platform/errors.js";
import { creditNoteData, invoiceContent, shopDetails } from "./document-data.js";
import { nextDocumentNumber } from "./document-numbers.js";

/**
 * Issued documents stay what they said (docs/decisions/035): an invoice is stored with its number
 * in the paying transaction, a credit note in the transaction that completes its refund, each as
 * the data its PDF prints (the seller's names, address and VAT number or none, the buyer, lines,
 * rates, amounts, VAT, dates, policies). Every download renders that record, never today's
 * settings or rows, and a download after the first is marked "Copy". A document issued before
 * the records existed is frozen the first time it is needed, from the data as it is then.
 */

type OrderRow = typeof orders.$inferSelect;
type IssuedRow = typeof issuedDocuments.$inferSelect;

/** Who issues documents and where its policies are read: the shop's settings at the moment of issue. */
export interface DocumentIssuer {
  shop: InvoiceData["shop"];
  publicUrl: string;
}

export const documentIssuer = (config: Config): DocumentIssuer => ({
  shop: shopDetails(config),
  publicUrl: config.publicUrl,
});

/** A stored document ready to render, and whether this download is a copy. */
export interface DocumentDownload<T> {
  data: T;
  copy: CopyMark | null;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** jsonb keeps dates as ISO text: every `...At` field comes back a Date, as the documents take it. */
function revived<T>(data: unknown): T {
  return JSON.parse(JSON.stringify(data), (key, value) =>
    typeof value === "string" && key.endsWith("At") && ISO_TIME.test(value) ? new Date(value) : value,
  ) as T;
}

const invoiceOf = (row: IssuedRow): InvoiceData => ({
  ...revived<Omit<InvoiceData, "number">>(row.data),
  number: invoiceNumberText(row.number),
});

const creditNoteOf = (row: IssuedRow): CreditNoteData => ({
  ...revived<Omit<CreditNoteData, "number">>(row.data),
  number: creditNoteNumberText(row.number),
});

/**
 * In the paying transaction (payments/mark-paid.ts), before the invoice number is taken: what the
 * invoice will say, read while the counter row is not yet locked.
 */
export async function invoiceToIssue(
  tx: Transaction,
  orderId: string,
  issuer: DocumentIssuer,
): Promise<Omit<InvoiceData, "number">> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} not found`);
  return invoiceContent(tx, order, issuer.shop, issuer.publicUrl);
}

/** ...and right after: the invoice stored with the number the order was just given, in one statement. */
export async function storeIssuedInvoice(
  tx: Transaction,
  orderId: string,
  content: Omit<InvoiceData, "number">,
): Promise<void> {
  await tx.execute(sql`
    insert into issued_documents (kind, number, order_id, data)
    select 'invoice', invoice_number, id, ${JSON.stringify(content)}::jsonb
    from orders where id = ${orderId} and invoice_number is not null`);
}

/**
 * In the transaction that completes a refund (payments/refunds.ts), once it has its credit note
 * number: whatever the credit note builder (document-data.ts `creditNoteData`) says, stored.
 */
export async function storeIssuedCreditNote(
  tx: Transaction,
  order: OrderRow,
  refundId: string,
  issuer: DocumentIssuer,
): Promise<void> {
  // An order with no invoice (none is ever paid without one; rows made by hand can be) has no
  // credit note to print either, as before documents were stored: nothing to store.
  if (order.invoiceNumber === null) return;
  const note = await creditNoteData(tx, order, refundId, issuer.shop);
  const [refund] = await tx.select({ number: refunds.creditNoteNumber }).from(refunds).where(eq(refunds.id, refundId));
  if (!note || refund?.number == null) throw new Error(`refund ${refundId} has no credit note to issue`);
  const { number: _number, ...content } = note;
  await tx
    .insert(issuedDocuments)
    .values({ kind: "credit_note", number: refund.number, orderId: order.id, refundId, data: content });
}

/** Counts a download; answers the copy mark when it is not the first. */
async function countDownload(db: Database, id: string): Promise<CopyMark | null> {
  const [row] = await db
    .update(issuedDocuments)
    .set({
      downloads: sql`${issuedDocuments.downloads} + 1`,
      firstDownloadedAt: sql`coalesce(${issuedDocuments.firstDownloadedAt}, now())`,
    })
    .where(eq(issuedDocuments.id, id))
    .returning({ downloads: issuedDocuments.downloads, firstDownloadedAt: issuedDocuments.firstDownloadedAt });
  return row && row.downloads > 1 && row.firstDownloadedAt ? { firstDownloadedAt: row.firstDownloadedAt } : null;
}

/** The order's invoices, newest (the one in force) first. */
async function invoiceRows(db: Database | Transaction, orderId: string): Promise<IssuedRow[]> {
  return db
    .select()
    .from(issuedDocuments)
    .where(and(eq(issuedDocuments.orderId, orderId), eq(issuedDocuments.kind, "invoice")))
    .orderBy(desc(issuedDocuments.number));
}

/**
 * An invoice issued before invoices were stored: frozen now, from the order and the settings as
 * they are, once (a second instance doing the same at the same moment finds the first's row).
 */
async function frozenOriginalInvoice(
  db: Database | Transaction,
  order: OrderRow,
  issuer: DocumentIssuer,
): Promise<IssuedRow | undefined> {
  if (order.invoiceNumber === null) return undefined;
  const content = await invoiceContent(db, order, issuer.shop, issuer.publicUrl);
  await db
    .insert(issuedDocuments)
    .values({ kind: "invoice", number: order.invoiceNumber, orderId: order.id, data: content, frozen: "first_use" })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(issuedDocuments)
    .where(and(eq(issuedDocuments.kind, "invoice"), eq(issuedDocuments.number, order.invoiceNumber)));
  return row;
}

/**
 * GET /api/orders/{id}/invoice.pdf: the invoice in force (the latest correction, else the
 * original), or the one numbered `number` (a replaced invoice stays readable). Null when the order
 * has no such invoice.
 */
export async function invoiceDownload(
  db: Database,
  order: OrderRow,
  issuer: DocumentIssuer,
  number?: number,
): Promise<DocumentDownload<InvoiceData> | null> {
  if (order.invoiceNumber === null) return null;
  const rows = await invoiceRows(db, order.id);
  let row = number === undefined ? rows[0] : rows.find((candidate) => candidate.number === number);
  if (!row && (number === undefined || number === order.invoiceNumber)) {
    row = await frozenOriginalInvoice(db, order, issuer);
  }
  if (!row) return null;
  return { data: invoiceOf(row), copy: await countDownload(db, row.id) };
}

/** GET /api/orders/{id}/refunds/{refundId}/credit-note.pdf; null when the refund has no credit note. */
export async function creditNoteDownload(
  db: Database,
  order: OrderRow,
  refundId: string,
  issuer: DocumentIssuer,
): Promise<DocumentDownload<CreditNoteData> | null> {
  const find = async () =>
    (
      await db
        .select()
        .from(issuedDocuments)
        .where(and(eq(issuedDocuments.refundId, refundId), eq(issuedDocuments.orderId, order.id)))
    )[0];
  let row = await find();
  if (!row) {
    // Issued before credit notes were stored: frozen now, once.
    const note = await creditNoteData(db, order, refundId, issuer.shop);
    const [refund] = await db
      .select({ number: refunds.creditNoteNumber })
      .from(refunds)
      .where(eq(refunds.id, refundId));
    if (!note || refund?.number == null) return null;
    const { number: _number, ...content } = note;
    await db
      .insert(issuedDocuments)
      .values({
        kind: "credit_note",
        number: refund.number,
        orderId: order.id,
        refundId,
        data: content,
        frozen: "first_use",
      })
      .onConflictDoNothing();
    row = await find();
  }
  if (!row) return null;
  return { data: creditNoteOf(row), copy: await countDownload(db, row.id) };
}

/** What an admin may correct on an invoice (VAT Act s20(1B)): the particulars, never the amounts. */
export interface InvoiceCorrectionRequest {
  reason: string;
  /** The buyer's particulars: a value replaces, null removes, undefined keeps. */
  name?: string | undefined;
  companyName?: string | null | undefined;
  vatNumber?: string | null | undefined;
  /** "current": the seller's names, address and contacts as set today; "keep": as on the invoice. */
  sellerDetails: "keep" | "current";
}

export interface IssuedCorrection {
  number: string;
  replaces: string;
}

/**
 * A corrected invoice on request (VAT Act s20(1B)): the invoice in force with the corrected
 * particulars, a new number from the gapless invoice series, naming the number it replaces, the
 * date of supply unchanged; stored as issued like any other. The amounts, lines and VAT are the
 * replaced invoice's (a change of amount is a credit note), and so is whether it is a tax
 * invoice: a shop that registered for VAT later cannot turn an earlier supply into a taxable one.
 * `onIssued` runs in the same transaction (the audit record).
 */
export async function issueCorrectedInvoice(
  db: Database,
  orderId: string,
  issuer: DocumentIssuer,
  request: InvoiceCorrectionRequest,
  onIssued: (tx: Transaction, issued: IssuedCorrection & { before: unknown; after: unknown }) => Promise<void>,
): Promise<IssuedCorrection | null> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || order.invoiceNumber === null) return null;
    const current = (await invoiceRows(tx, order.id))[0] ?? (await frozenOriginalInvoice(tx, order, issuer));
    if (!current) return null;
    const replaced = invoiceOf(current);
    const customer: DocumentCustomer = {
      ...replaced.customer,
      ...(request.name !== undefined ? { name: request.name } : {}),
      ...(request.companyName !== undefined ? { companyName: request.companyName || null } : {}),
      ...(request.vatNumber !== undefined ? { vatNumber: request.vatNumber || null } : {}),
    };
    const shop =
      request.sellerDetails === "current"
        ? {
            ...issuer.shop,
            vatNumber: replaced.shop.vatNumber === null ? null : (issuer.shop.vatNumber ?? replaced.shop.vatNumber),
          }
        : replaced.shop;
    if (JSON.stringify([customer, shop]) === JSON.stringify([replaced.customer, replaced.shop])) {
      throw badRequest(
        `Nothing to correct: ${replaced.number} already says this. Give the buyer's corrected particulars or take the shop's details as set today.`,
      );
    }
    const { number: _number, correction: _previous, ...kept } = replaced;
    const correctedAt = new Date();
    const content: Omit<InvoiceData, "number"> = {
      ...kept,
      shop,
      customer,
      correction: { replaces: replaced.number, reason: request.reason, correctedAt },
    };
    // Last, as at payment: the series' row is held for as short a time as possible.
    const number = await nextDocumentNumber(tx, "invoice");
    await tx.insert(issuedDocuments).values({
      kind: "invoice",
      number,
      orderId: order.id,
      replacesNumber: current.number,
      data: content,
      issuedAt: correctedAt,
    });
    const issued = { number: invoiceNumberText(number), replaces: replaced.number };
    await onIssued(tx, {
      ...issued,
      before: { customer: replaced.customer, shop: replaced.shop },
      after: { customer, shop },
    });
    return issued;
  });
}

/** The order's stored documents for the admin's view: invoices (newest first), then credit notes. */
export async function issuedDocumentsOf(db: Database, orderId: string) {
  return db
    .select({
      kind: issuedDocuments.kind,
      number: issuedDocuments.number,
      refundId: issuedDocuments.refundId,
      replacesNumber: issuedDocuments.replacesNumber,
      frozen: issuedDocuments.frozen,
      issuedAt: issuedDocuments.issuedAt,
      downloads: issuedDocuments.downloads,
      firstDownloadedAt: issuedDocuments.firstDownloadedAt,
    })
    .from(issuedDocuments)
    .where(eq(issuedDocuments.orderId, orderId))
    .orderBy(issuedDocuments.kind, desc(issuedDocuments.number));
}

/**
 * The retention job (privacy/retention.ts): the buyer's details in the stored documents of the
 * orders whose retention ended go with the order's; the amounts, lines and numbers stay.
 */
export async function anonymiseIssuedDocuments(
  tx: Transaction,
  orderIds: readonly string[],
  anonymisedName: string,
): Promise<void> {
  if (orderIds.length === 0) return;
  const ids = sql.join(
    orderIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`
    update issued_documents set data = jsonb_set(data, '{customer}', (data->'customer') || jsonb_build_object(
      'name', ${anonymisedName}::text, 'companyName', null, 'vatNumber', null, 'email', '', 'phone', '',
      'address', '', 'city', '', 'zipCode', '', 'suburb', '', 'complex', '', 'deliveryInstructions', '', 'altPhone', ''))
    where order_id in (${ids}) and data ? 'customer'`);
}
