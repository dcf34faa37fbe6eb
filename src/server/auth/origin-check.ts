import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { forbidden } from "../platform/errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The shop's own origins: PUBLIC_URL's, and the one the request was addressed to (Host, as proxies allow). */
function ownOrigins(request: FastifyRequest): Set<string> {
  const own = new Set<string>();
  const publicOrigin = originOf(request.server.config.publicUrl);
  if (publicOrigin) own.add(publicOrigin);
  if (request.host) own.add(`${request.protocol}://${request.host}`.toLowerCase());
  return own;
}

/**
 * Refuses a state-changing request (POST, PUT, PATCH, DELETE) that a browser sent from another
 * site, on top of the SameSite=Lax cookie. Only a present, foreign Origin (or, without one, a
 * foreign Referer) is refused: requests with neither, such as PayFast's server-to-server ITN or
 * curl, pass.
 */
export const originCheck = fp(
  async (app) => {
    app.addHook("onRequest", (request, _reply, done) => {
      if (SAFE_METHODS.has(request.method)) return done();
      const origin = request.headers.origin;
      const referer = request.headers.referer;
      const claimed = origin !== undefined ? origin : referer !== undefined ? originOf(referer) : undefined;
      if (claimed === undefined) return done();
      // "null" (sandboxed frames, privacy redirects) or an unparsable Referer is foreign too.
      if (claimed === null || !ownOrigins(request).has(claimed.toLowerCase())) {
        return done(forbidden("Cross-site request refused", "CROSS_SITE_REFUSED"));
      }
      done();
    });
  },
  { name: "origin-check" },
);
