import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../platform/db/client.js";
import { shopKeys } from "../platform/db/schema.js";

/** What a link may do: confirm one alert, or end every alert of one address. */
export type StockAlertLink = { purpose: "confirm"; alertId: string } | { purpose: "unsubscribe"; email: string };

interface Payload {
  /** "c": confirm, "u": unsubscribe. */
  p: "c" | "u";
  /** The alert's id (confirm) or the address (unsubscribe). */
  s: string;
  /** Expiry, seconds since 1970. */
  x: number;
}

/** The key of migration 0016, read once per process: the same on every instance sharing the database. */
export function stockAlertKey(db: Database): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= db
      .select({ key: shopKeys.key })
      .from(shopKeys)
      .where(eq(shopKeys.name, "stock_alert_links"))
      .then(([row]) => {
        if (!row) throw new Error("shop_keys has no stock_alert_links key: run the migrations");
        return Buffer.from(row.key, "hex");
      });
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
}

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url");

/** A link token: its payload in base64url, a dot, and the payload's HMAC-SHA256 under the shop's key. */
export function signStockAlertLink(key: Buffer, link: StockAlertLink, expiresAt: Date): string {
  const payload: Payload = {
    p: link.purpose === "confirm" ? "c" : "u",
    s: link.purpose === "confirm" ? link.alertId : link.email,
    x: Math.floor(expiresAt.getTime() / 1000),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(key, body)}`;
}

/** The link a token was made for, or null when it is not ours, was altered, or has expired. */
export function readStockAlertLink(key: Buffer, token: string, now = new Date()): StockAlertLink | null {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(key, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: Partial<Payload>;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<Payload>;
  } catch {
    return null;
  }
  if (typeof payload.s !== "string" || typeof payload.x !== "number") return null;
  if (payload.x * 1000 <= now.getTime()) return null;
  if (payload.p === "c") return { purpose: "confirm", alertId: payload.s };
  if (payload.p === "u") return { purpose: "unsubscribe", email: payload.s };
  return null;
}
