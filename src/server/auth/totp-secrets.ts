import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Config, parseTotpKey } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { users } from "../platform/db/schema.js";

/**
 * Admins' TOTP secrets are sealed (AES-256-GCM) with TOTP_ENCRYPTION_KEY, which never lives in the
 * database: a stolen backup holds no working second factor (docs/decisions/040-second-factor-hardening.md).
 * Stored as `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url), the key id being the first 8 hex
 * characters of the key's SHA-256, so a rotation knows which key sealed a row. The user's id is
 * the additional data: a sealed secret copied onto another admin's row does not open.
 */
export interface TotpKeys {
  current: Buffer;
  previous: Buffer | null;
}

/** Where a test-mode shop keeps the key it made itself when TOTP_ENCRYPTION_KEY is unset. */
export const TOTP_KEY_FILE = "totp-encryption.key";

const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);
const aad = (userId: string) => Buffer.from(`totp:${userId}`);

/**
 * The keys to use: TOTP_ENCRYPTION_KEY, or (test modes only: config.ts refuses live mode without
 * one) DATA_DIR/totp-encryption.key, made with 32 random bytes on the first start and kept 0600.
 */
export function totpKeys(config: Pick<Config, "dataDir" | "adminSecondFactor">): TotpKeys {
  const { current, previous } = config.adminSecondFactor.keys;
  if (current) return { current, previous };
  const file = path.join(config.dataDir, TOTP_KEY_FILE);
  let text: string | null = null;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text === null) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    text = randomBytes(32).toString("base64");
    // "wx": of two instances starting at once on one folder, the second reads the first's key.
    try {
      writeFileSync(file, `${text}\n`, { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      text = readFileSync(file, "utf8");
    }
  }
  const key = parseTotpKey(text);
  if (!key) throw new Error(`${file} does not hold a key of 32 bytes (base64); remove it to make a new one.`);
  return { current: key, previous };
}

const isSealed = (stored: string) => stored.startsWith("v1.");

/** Seals `secret` (the base32 TOTP secret) for `userId` with the current key. */
export function sealTotpSecret(keys: TotpKeys, userId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.current, iv);
  cipher.setAAD(aad(userId));
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url"));
  return ["v1", keyId(keys.current), ...parts].join(".");
}

/**
 * Opens a stored secret: sealed with the current or the previous key, or a plain secret stored
 * before this change (sealed at the next start). Throws when no key we have sealed it.
 */
export function openTotpSecret(keys: TotpKeys, userId: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [, id, iv, tag, sealed] = stored.split(".");
  const key = [keys.current, keys.previous].find((candidate) => candidate && keyId(candidate) === id);
  if (!key || !iv || !tag || sealed === undefined) {
    throw new Error(
      `A TOTP secret of user ${userId} is sealed with key ${id}, which is neither TOTP_ENCRYPTION_KEY nor TOTP_ENCRYPTION_KEY_PREVIOUS.`,
    );
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(aad(userId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
}

/** Whether a stored secret is sealed with the current key (else it is plain, or under the previous key). */
export const sealedWithCurrent = (keys: TotpKeys, stored: string) => stored.startsWith(`v1.${keyId(keys.current)}.`);

/**
 * At start: seals every plain secret (stored before this change) and every one sealed with the
 * previous key, with the current key. Each row is written only if it still holds what was read,
 * so instances starting together do not undo each other. Answers how many rows were sealed again.
 */
export async function sealStoredTotpSecrets(db: Database, keys: TotpKeys, log: FastifyBaseLogger): Promise<number> {
  const rows = await db
    .select({ id: users.id, secret: users.totpSecret, pending: users.totpPendingSecret })
    .from(users)
    .where(or(isNotNull(users.totpSecret), isNotNull(users.totpPendingSecret)));
  let sealed = 0;
  for (const row of rows) {
    const again = (stored: string | null) =>
      stored === null || sealedWithCurrent(keys, stored)
        ? stored
        : sealTotpSecret(keys, row.id, openTotpSecret(keys, row.id, stored));
    let secret: string | null;
    let pending: string | null;
    try {
      secret = again(row.secret);
      pending = again(row.pending);
    } catch (error) {
      // A secret under a key we no longer have: that admin cannot give codes until another resets them.
      log.error({ err: error, userId: row.id }, "a TOTP secret could not be opened");
      continue;
    }
    if (secret === row.secret && pending === row.pending) continue;
    await db
      .update(users)
      .set({ totpSecret: secret, totpPendingSecret: pending })
      .where(
        and(
          eq(users.id, row.id),
          sql`${users.totpSecret} is not distinct from ${row.secret}`,
          sql`${users.totpPendingSecret} is not distinct from ${row.pending}`,
        ),
      );
    sealed += 1;
  }
  if (sealed > 0) log.info({ sealed }, "TOTP secrets sealed with the current TOTP_ENCRYPTION_KEY");
  return sealed;
}
