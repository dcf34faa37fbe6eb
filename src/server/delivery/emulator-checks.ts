import { createHmac } from "node:crypto";

/**
 * The courier emulator's own checks of what it receives (docs/decisions/051), written apart from
 * the shop's clients (shiplogic.ts, tcg-locker.ts, pargo.ts): a mistake in a client is not
 * repeated here, so the emulator refuses it as the vendor would.
 */

/** An address as ShipLogic and TCG Locker take it. */
export interface WireAddress {
  street_address?: unknown;
  local_area?: unknown;
  city?: unknown;
  zone?: unknown;
  country?: unknown;
  code?: unknown;
}

/** A parcel in centimetres and kilograms, read off ShipLogic's submitted_* fields. */
export interface WireParcel {
  l: number;
  w: number;
  h: number;
  kg: number;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer (\S+)$/.exec(header ?? "");
  return match?.[1] ?? null;
}

/** The names of required fields that are absent or blank, with a prefix ("delivery_address.code"). */
export function missingFields(body: unknown, names: readonly string[], prefix = ""): string[] {
  if (typeof body !== "object" || body === null) return names.map((name) => `${prefix}${name}`);
  const record = body as Record<string, unknown>;
  return names
    .filter((name) => record[name] === undefined || record[name] === null || record[name] === "")
    .map((name) => `${prefix}${name}`);
}

const positive = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value > 0;

/** ShipLogic's parcels: each with four positive submitted_* measures; null when any is missing or bad. */
export function parcelsOf(value: unknown): WireParcel[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > 50) return null;
  const parcels: WireParcel[] = [];
  for (const item of value) {
    const p = (item ?? {}) as Record<string, unknown>;
    const [l, w, h, kg] = [p.submitted_length_cm, p.submitted_width_cm, p.submitted_height_cm, p.submitted_weight_kg];
    if (!positive(l) || !positive(w) || !positive(h) || !positive(kg)) return null;
    parcels.push({ l, w, h, kg });
  }
  return parcels;
}

/**
 * The emulator's webhook signature: HMAC-SHA256 of the exact body under the shop's webhook secret,
 * in hex (decision 051, round 2: ShipLogic's own scheme is not published; unverified).
 */
export function emulatorWebhookSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/** The emulator's label links: the shipment and expiry, signed with the emulator's own key (as S3 presigns). */
export function emulatorLinkSignature(key: string, shipmentId: string, expires: number): string {
  return createHmac("sha256", key).update(`${shipmentId}:${expires}`).digest("hex");
}
