import { createHash } from "node:crypto";

/**
 * A link's token as stored: a password reset's or an e-mail change's token is made when its e-mail
 * is sent (sender.ts) and kept only as this hash, so the outbox and the database never hold a link
 * that works.
 */
export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
