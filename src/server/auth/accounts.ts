import { eq, or, sql } from "drizzle-orm";
import type { User } from "#domain/schemas/account.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { users } from "../platform/db/schema.js";
import { conflict, type HttpError } from "../platform/errors.js";
import type { SessionUser } from "./guards.js";

/** Every column of a user but the password hash: what the server may hand around. */
export const userColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  fullName: users.fullName,
  phone: users.phone,
  address: users.address,
  city: users.city,
  zipCode: users.zipCode,
  altPhone: users.altPhone,
  complex: users.complex,
  suburb: users.suburb,
  province: users.province,
  deliveryInstructions: users.deliveryInstructions,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
};

/** The wire shape of a user (docs/product.md §3): isAdmin as "true"/"false", never the password. */
export function toUser(row: SessionUser): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    fullName: row.fullName,
    phone: row.phone,
    altPhone: row.altPhone,
    address: row.address,
    complex: row.complex,
    suburb: row.suburb,
    city: row.city,
    province: row.province,
    zipCode: row.zipCode,
    deliveryInstructions: row.deliveryInstructions,
    isAdmin: row.isAdmin ? "true" : "false",
    createdAt: row.createdAt.toISOString(),
  };
}

export const usernameTaken = () => conflict("Username already taken", "USERNAME_TAKEN");
export const emailTaken = () => conflict("Email already registered", "EMAIL_TAKEN");

/** The 409s of the case-insensitive unique indexes on users. */
const DUPLICATE_ERRORS: Record<string, () => HttpError> = {
  users_username_lower_key: usernameTaken,
  users_email_lower_key: emailTaken,
};

/**
 * The 409 when `error` is PostgreSQL's unique violation (23505) on a users index, else null.
 * Drizzle wraps the driver's error, so the chain of causes is searched.
 */
export function duplicateUserError(error: unknown): HttpError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === "23505" && typeof constraint === "string") return DUPLICATE_ERRORS[constraint]?.() ?? null;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The 409 when a username or an e-mail already belongs to someone else (case-insensitive), else null. */
export async function findTakenIdentity(
  db: Database,
  identity: { username?: string; email?: string },
  exceptUserId?: string,
): Promise<HttpError | null> {
  const sameUsername =
    identity.username === undefined ? sql`false` : sql`lower(${users.username}) = lower(${identity.username})`;
  const sameEmail = identity.email === undefined ? sql`false` : sql`lower(${users.email}) = lower(${identity.email})`;
  const rows = await db
    .select({ id: users.id, sameUsername: sql<boolean>`${sameUsername}`, sameEmail: sql<boolean>`${sameEmail}` })
    .from(users)
    .where(or(sameUsername, sameEmail));
  const others = rows.filter((row) => row.id !== exceptUserId);
  if (others.some((row) => row.sameUsername)) return usernameTaken();
  if (others.some((row) => row.sameEmail)) return emailTaken();
  return null;
}

/** 409 when the account was closed by its customer: its replaced details stay as they are. */
export async function refuseClosedAccount(db: Database | Transaction, id: string): Promise<void> {
  const [row] = await db.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, id)).limit(1);
  if (row?.closedAt) {
    throw conflict("This account was closed by its customer, so its details cannot be changed.", "ACCOUNT_CLOSED");
  }
}

export async function findUserById(db: Database, id: string): Promise<SessionUser | null> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * The account's address when it is proven theirs (they followed a link mailed to it: at sign-up,
 * an e-mail change or a password reset), else null. Records that only an address ties to a person
 * (alerts and notices sent to it) are joined by this alone (docs/decisions/041).
 */
export async function provenEmail(db: Database | Transaction, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt, closedAt: users.closedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.verifiedAt && !row.closedAt ? row.email : null;
}
