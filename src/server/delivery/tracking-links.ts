import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { TRACKING_LINK_DAYS } from "#domain/tracking.js";
import type { Database } from "../platform/db/client.js";
import { shopKeys } from "../platform/db/schema.js";

/**
 * The tracking page's link in the delivery e-mails: `{order id}.{expiry}.{HMAC}` under the shop's
 * `tracking_links` key (migration 0030), so the page opens without logging in, for that order only,
 * until it expires (TRACKING_LINK_DAYS).
 */
export function trackingLinkKey(db: Database): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= db
      .select({ key: shopKeys.key })
      .from(shopKeys)
      .where(eq(shopKeys.name, "tracking_links"))
      .then(([row]) => {
        if (!row) throw new Error("shop_keys has no tracking_links key: run the migrations");
        return Buffer.from(row.key, "hex");
      });
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
}

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url");

export function signTrackingToken(key: Buffer, orderId: string, now = new Date()): string {
  const expires = Math.floor(now.getTime() / 1000) + TRACKING_LINK_DAYS * 86_400;
  return `${expires}.${mac(key, `${orderId}.${expires}`)}`;
}

/** Whether the token opens this order's tracking page now. */
export function trackingTokenOpens(key: Buffer, orderId: string, token: string, now = new Date()): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2]) return false;
  if (Number(match[1]) * 1000 < now.getTime()) return false;
  const expected = Buffer.from(mac(key, `${orderId}.${match[1]}`));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
