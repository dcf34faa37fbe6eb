import { desc, eq, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type EmailMessage,
  type EmailSummary,
  emailIdParam,
  emailListQuery,
  emailMessage,
  emailPage,
  emailSummary,
} from "#domain/schemas/emails.js";
import { recordAudit } from "../platform/audit.js";
import type { Database } from "../platform/db/client.js";
import { type EmailKind, emails } from "../platform/db/schema.js";
import { notFound } from "../platform/errors.js";
import { shopIdentity } from "./mailer.js";
import type { EmailDataByKind } from "./messages.js";
import { renderEmail } from "./render.js";
import { subjectFor } from "./subjects.js";

/**
 * The HTML of a message shown in the admin's sandboxed iframe: nothing in it may run, load a
 * script, submit or reach the shop; inline styles and images (as in a mail client) may.
 */
const MESSAGE_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; sandbox";

const summaryColumns = {
  id: emails.id,
  kind: emails.kind,
  toAddress: emails.toAddress,
  subject: emails.subject,
  /** A queued message has no subject yet: subjectFor makes it from the data. */
  data: emails.data,
  status: emails.status,
  attempts: emails.attempts,
  lastError: emails.lastError,
  createdAt: emails.createdAt,
  sentAt: emails.sentAt,
  nextAttemptAt: emails.nextAttemptAt,
};

/** toSummary's assignments check that the wire's kinds and statuses (domain) hold the outbox's. */
type SummaryRow = Pick<
  typeof emails.$inferSelect,
  | "id"
  | "kind"
  | "toAddress"
  | "subject"
  | "data"
  | "status"
  | "attempts"
  | "lastError"
  | "createdAt"
  | "sentAt"
  | "nextAttemptAt"
>;

function toSummary(row: SummaryRow, shopName: string): EmailSummary {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: subjectFor(row, shopName),
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  };
}

/** The message as the customer got it, or (not delivered yet) as it would be rendered now. */
async function messageById(app: FastifyInstance, db: Database, id: number): Promise<EmailMessage> {
  const [row] = await db
    .select({ ...summaryColumns, html: emails.html, textBody: emails.textBody })
    .from(emails)
    .where(eq(emails.id, id));
  if (!row) throw notFound("E-mail not found");
  const delivered =
    row.html !== null && row.textBody !== null
      ? { html: row.html, text: row.textBody }
      : await renderEmail(row.kind, row.data as unknown as EmailDataByKind[EmailKind], shopIdentity(app.config), {});
  return { ...toSummary(row, app.config.shop.name), ...delivered };
}

/**
 * /api/admin/emails: the outbox, newest first (keyset pages on id), one message as the customer
 * sees it (also as bare HTML for a sandboxed iframe), and Resend, which queues a message again.
 */
export const adminEmailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/emails", { schema: { querystring: emailListQuery, response: { 200: emailPage } } }, async (request) => {
    const { limit, cursor } = request.query;
    const rows = await app.db
      .select(summaryColumns)
      .from(emails)
      .where(cursor === undefined ? undefined : lt(emails.id, cursor))
      .orderBy(desc(emails.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      emails: page.map((row) => toSummary(row, app.config.shop.name)),
      nextCursor: rows.length > limit && last ? String(last.id) : null,
    };
  });

  app.get("/emails/:id", { schema: { params: emailIdParam, response: { 200: emailMessage } } }, async (request) =>
    messageById(app, app.db, request.params.id),
  );

  app.get(
    "/emails/:id/html",
    { schema: { params: emailIdParam, response: { 200: z.string() } } },
    async (request, reply) => {
      const { html } = await messageById(app, app.db, request.params.id);
      // Its own headers instead of the API's: the admin page frames it (same origin only).
      return reply
        .header("content-security-policy", MESSAGE_HTML_CSP)
        .header("x-frame-options", "SAMEORIGIN")
        .type("text/html; charset=utf-8")
        .send(html);
    },
  );

  app.post(
    "/emails/:id/resend",
    { schema: { params: emailIdParam, response: { 200: emailSummary } } },
    async (request) => {
      // A captured message is queued again too: with no SMTP_URL it is captured afresh.
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx
          .select({ status: emails.status, attempts: emails.attempts })
          .from(emails)
          .where(eq(emails.id, request.params.id))
          .for("update");
        if (!before) return null;
        const [queued] = await tx
          .update(emails)
          .set({ status: "queued", attempts: 0, nextAttemptAt: sql`now()`, lastError: null, lockedUntil: null })
          .where(eq(emails.id, request.params.id))
          .returning(summaryColumns);
        if (!queued) return null;
        await recordAudit(tx, request, {
          action: "email.resent",
          subject: { type: "email", id: String(queued.id) },
          before,
          after: { status: queued.status, attempts: queued.attempts, to: queued.toAddress, kind: queued.kind },
        });
        return queued;
      });
      if (!row) throw notFound("E-mail not found");
      app.mail.wake();
      return toSummary(row, app.config.shop.name);
    },
  );
};
