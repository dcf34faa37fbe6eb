import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../platform/db/client.js";
import { shopKeys } from "../platform/db/schema.js";

/** The skip link of one box: the plan, the date it skips, and when the link stops working. */
export interface PlanSkipLink {
  planId: string;
  date: string;
}

/** The key of migration 0028 ("plan_links"), read once per process: the same on every instance. */
export function planLinkKey(db: Database): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= db
      .select({ key: shopKeys.key })
      .from(shopKeys)
      .where(eq(shopKeys.name, "plan_links"))
      .then(([row]) => {
        if (!row) throw new Error("shop_keys has no plan_links key: run the migrations");
        return Buffer.from(row.key, "hex");
      });
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
}

/** What a link does: the purpose is signed with it, so a skip link never pays and a pay link never skips. */
type LinkPurpose = "plan-skip" | "plan-pay";

const mac = (key: Buffer, body: string, purpose: LinkPurpose) =>
  createHmac("sha256", key).update(`${purpose}:${body}`).digest("base64url");

function signLink(key: Buffer, purpose: LinkPurpose, link: PlanSkipLink, expiresAt: Date): string {
  const body = Buffer.from(
    JSON.stringify({ p: link.planId, d: link.date, x: Math.floor(expiresAt.getTime() / 1000) }),
  ).toString("base64url");
  return `${body}.${mac(key, body, purpose)}`;
}

/** `{payload}.{HMAC}`: the payload names the plan and the date, and the expiry in seconds. */
export const signPlanSkipLink = (key: Buffer, link: PlanSkipLink, expiresAt: Date) =>
  signLink(key, "plan-skip", link, expiresAt);

/** A reminder plan's pay link for one box (pay-link.ts): the same shape, signed for paying. */
export const signPlanPayLink = (key: Buffer, link: PlanSkipLink, expiresAt: Date) =>
  signLink(key, "plan-pay", link, expiresAt);

/** The box a token skips, or null when it is not ours, was altered, or has expired. */
export const readPlanSkipLink = (key: Buffer, token: string, now = new Date()) =>
  readLink(key, "plan-skip", token, now);

/** The box a pay link pays for, or null when it is not ours, was altered, or has expired. */
export const readPlanPayLink = (key: Buffer, token: string, now = new Date()) => readLink(key, "plan-pay", token, now);

function readLink(key: Buffer, purpose: LinkPurpose, token: string, now: Date): PlanSkipLink | null {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(key, body, purpose));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: { p?: unknown; d?: unknown; x?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as typeof payload;
  } catch {
    return null;
  }
  if (typeof payload.p !== "string" || typeof payload.d !== "string" || typeof payload.x !== "number") return null;
  if (payload.x * 1000 <= now.getTime()) return null;
  return { planId: payload.p, date: payload.d };
}
