import { and, desc, eq, gt, like, ne } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { deviceLabel } from "#domain/device.js";
import { activeSession, sessionIdParam } from "#domain/schemas/sessions.js";
import { recordAudit } from "../platform/audit.js";
import { sessions } from "../platform/db/schema.js";
import { notFound } from "../platform/errors.js";
import { requireUser } from "./guards.js";
import { endSession, hashSessionToken, sessionCookieName } from "./session.js";

/** How much of a session's token hash names it in the list: enough to be unique per user, useless as a token. */
const ID_LENGTH = 16;

/**
 * /api/auth/sessions: the signed-in user's sessions (device, address, last used), and ending one
 * of them (this one signs out), or every other one. Customers and admins alike.
 */
export const sessionListRoutes: FastifyPluginAsyncZod = async (app) => {
  const currentHash = (cookie: string | undefined) => (cookie ? hashSessionToken(cookie) : "");

  app.get("/sessions", { schema: { response: { 200: z.array(activeSession) } } }, async (request) => {
    const user = requireUser(request);
    const current = currentHash(request.cookies[sessionCookieName(app)]);
    const rows = await app.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, new Date())))
      .orderBy(desc(sessions.lastSeenAt));
    return rows.map((row) => ({
      id: row.tokenHash.slice(0, ID_LENGTH),
      current: row.tokenHash === current,
      device: deviceLabel(row.userAgent),
      address: row.ip || "unknown",
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
    }));
  });

  app.delete("/sessions/:id", { schema: { params: sessionIdParam } }, async (request, reply) => {
    const user = requireUser(request);
    const current = currentHash(request.cookies[sessionCookieName(app)]);
    if (current.startsWith(request.params.id)) {
      await endSession(request, reply);
      return reply.status(204).send();
    }
    const ended = await app.db
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), like(sessions.tokenHash, `${request.params.id}%`)))
      .returning({ hash: sessions.tokenHash });
    if (ended.length === 0) throw notFound("No such session: it has ended already");
    await recordAudit(app.db, request, {
      action: "auth.sessions_ended",
      subject: { type: "user", id: user.id },
      after: { ended: ended.length, which: "one" },
    });
    return reply.status(204).send();
  });

  app.post("/sessions/end-others", async (request, reply) => {
    const user = requireUser(request);
    const current = currentHash(request.cookies[sessionCookieName(app)]);
    const ended = await app.db
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), ne(sessions.tokenHash, current)))
      .returning({ hash: sessions.tokenHash });
    await recordAudit(app.db, request, {
      action: "auth.sessions_ended",
      subject: { type: "user", id: user.id },
      after: { ended: ended.length, which: "all others" },
    });
    return reply.status(200).send({ ended: ended.length });
  });
};
