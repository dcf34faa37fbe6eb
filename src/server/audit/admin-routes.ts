import { and, desc, lt, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AUDIT_PAGE_SIZE } from "#domain/limits.js";
import { type AuditEntry, auditListQuery, auditPage } from "#domain/schemas/audit.js";
import { containsPattern } from "../platform/cursor.js";
import { auditLog } from "../platform/db/schema.js";
import { badRequest } from "../platform/errors.js";

/** The text the audit trail's trigram index holds (migration 0006): the search must use this very expression. */
const searchText = sql`lower(coalesce(${auditLog.actorUsername}, '') || ' ' || ${auditLog.action} || ' ' || coalesce(${auditLog.subjectId}, '') || ' ' || coalesce(${auditLog.address}, ''))`;

/** A cursor of the audit trail: the last record's id (records are never changed, ids only grow). */
function cursorId(cursor: string): number {
  const id = Number(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!Number.isSafeInteger(id) || id < 1) throw badRequest("cursor must be a nextCursor from a previous page");
  return id;
}

/** A stored record as the API gives it (the request id stays in the database, for the logs). */
export function auditEntryOf({
  requestId: _requestId,
  foldKey: _foldKey,
  at,
  lastAt,
  ...row
}: typeof auditLog.$inferSelect): AuditEntry {
  return { ...row, at: at.toISOString(), lastAt: row.repeatCount > 1 && lastAt ? lastAt.toISOString() : null };
}

/** GET /api/admin/audit: the audit trail, newest first, in keyset pages, searched by actor, action, subject or address. */
export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/audit", { schema: { querystring: auditListQuery, response: { 200: auditPage } } }, async (request) => {
    const { q, cursor } = request.query;
    const rows = await app.db
      .select()
      .from(auditLog)
      .where(
        and(
          q ? sql`${searchText} like ${containsPattern(q)}` : undefined,
          cursor ? lt(auditLog.id, cursorId(cursor)) : undefined,
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE + 1);
    const page = rows.slice(0, AUDIT_PAGE_SIZE);
    const last = page.at(-1);
    return {
      entries: page.map(auditEntryOf),
      nextCursor: rows.length > AUDIT_PAGE_SIZE && last ? Buffer.from(String(last.id)).toString("base64url") : null,
    };
  });
};
