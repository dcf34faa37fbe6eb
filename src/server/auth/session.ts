import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { sessions, users } from "../platform/db/schema.js";
import { userColumns } from "./accounts.js";

/**
 * The session cookie's name: `__Host-sid` when PUBLIC_URL is https, `sid` on plain http (where
 * the browser would refuse a `__Host-` cookie, which must be Secure). From `config.session`.
 */
export function sessionCookieName(app: FastifyInstance): string {
  return app.config.session.cookieName;
}

/**
 * A readable companion of the httpOnly session cookie. It grants nothing: it only tells the
 * browser that a session may exist, so a guest's page load skips asking /api/auth/me (whose
 * 401 would cost a request and a console error on every guest visit).
 */
export const SIGNED_IN_HINT_COOKIE = "signed_in";

/** last_seen_at is written at most this often, not on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** How much of a User-Agent a session keeps: enough to tell browsers apart. */
const USER_AGENT_KEPT = 200;

/** 32 random bytes, base64url: exactly what a cookie we issued looks like. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The table keeps only the token's SHA-256, so a leaked table holds no usable session. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Path=/, no Domain: as the `__Host-` prefix requires (and so the cookie goes to this host only). */
function cookieOptions(app: FastifyInstance) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: app.config.secureCookies,
  };
}

function clearSessionCookies(app: FastifyInstance, reply: FastifyReply) {
  reply.clearCookie(sessionCookieName(app), cookieOptions(app));
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { ...cookieOptions(app), httpOnly: false });
}

/**
 * When a session seen at `lastSeenAt` stops being valid: idle expiry (shorter for an admin, judged
 * by what the user is now, so a promotion shortens a running session), capped by the absolute one.
 */
function expiryOf(app: FastifyInstance, isAdmin: boolean, createdAt: Date, lastSeenAt: Date): Date {
  const { idleMs, adminIdleMs, absoluteMs } = app.config.session;
  const idle = isAdmin ? adminIdleMs : idleMs;
  return new Date(Math.min(lastSeenAt.getTime() + idle, createdAt.getTime() + absoluteMs));
}

/**
 * Signs a user in: a new random token in the cookie, its hash in `sessions`. Any session the
 * request already carried is ended, so a token planted before login is worth nothing after it.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; isAdmin: boolean },
  /** The login gave a second-factor code: the session starts with it fresh. */
  secondFactor = false,
): Promise<void> {
  const app = request.server;
  await endSession(request, reply);
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  await app.db.insert(sessions).values({
    tokenHash: hashSessionToken(token),
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: expiryOf(app, user.isAdmin, now, now),
    // What the owner's list of sessions shows (users/sessions.ts): the browser, cut, and the address.
    userAgent: (request.headers["user-agent"] ?? "").slice(0, USER_AGENT_KEPT),
    ip: request.ip,
    secondFactorAt: secondFactor ? now : null,
  });
  // The user's own expired sessions are swept here, so the table does not grow without bound.
  await app.db.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, now)));
  const maxAge = Math.floor(app.config.session.absoluteMs / 1000);
  reply.setCookie(sessionCookieName(app), token, { ...cookieOptions(app), maxAge });
  reply.setCookie(SIGNED_IN_HINT_COOKIE, "1", { ...cookieOptions(app), httpOnly: false, maxAge });
}

/** Signs out: deletes the request's session on the server and clears the cookie. */
export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[sessionCookieName(request.server)];
  if (token) {
    await request.server.db.delete(sessions).where(eq(sessions.tokenHash, hashSessionToken(token)));
    clearSessionCookies(request.server, reply);
  }
  request.user = null;
}

/**
 * Loads the session's user from the session cookie into request.user, for /api requests (pages
 * and assets need no user, and should not cost a query each). Unknown or expired sessions
 * leave request.user null and clear the cookie; expired rows are deleted when seen.
 */
export const sessionPlugin = fp(
  async (app) => {
    app.decorateRequest("user", null);
    app.decorateRequest("secondFactor", null);
    // Every signed-in API request runs this: built once and prepared by name, so neither Drizzle
    // nor PostgreSQL parses and plans it again per request.
    const findSession = app.db
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        secondFactorAt: sessions.secondFactorAt,
        passwordConfirmedAt: sessions.passwordConfirmedAt,
        totpEnabledAt: users.totpEnabledAt,
        user: userColumns,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      // A disabled account's sessions were deleted when it was disabled; this also ends one made meanwhile.
      .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), isNull(users.disabledAt)))
      .limit(1)
      .prepare("session_by_token");

    /** Who the request's session cookie names, set as request.user (or the stale cookie cleared). */
    const identify = async (request: FastifyRequest, reply: FastifyReply) => {
      const token = request.cookies[sessionCookieName(app)];
      if (!token) return;
      if (!TOKEN_SHAPE.test(token)) {
        clearSessionCookies(app, reply);
        return;
      }

      const tokenHash = hashSessionToken(token);
      const [row] = await findSession.execute({ tokenHash });
      if (!row) {
        clearSessionCookies(app, reply);
        return;
      }

      const now = new Date();
      if (expiryOf(app, row.user.isAdmin, row.createdAt, row.lastSeenAt) <= now) {
        await app.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
        clearSessionCookies(app, reply);
        return;
      }

      request.user = row.user;
      request.secondFactor = {
        enrolled: row.totpEnabledAt !== null,
        at: row.secondFactorAt,
        passwordAt: row.passwordConfirmedAt,
        tokenHash,
      };
      if (now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
        await app.db
          .update(sessions)
          .set({ lastSeenAt: now, expiresAt: expiryOf(app, row.user.isAdmin, row.createdAt, now) })
          .where(eq(sessions.tokenHash, tokenHash));
      }
    };
    // Only the API knows who is asking; pages and files are answered without a promise to wait on.
    app.addHook("onRequest", (request, reply, done) => {
      if (!request.url.startsWith("/api/")) return done();
      identify(request, reply).then(() => done(), done);
    });
  },
  { name: "session", dependencies: ["@fastify/cookie"] },
);
