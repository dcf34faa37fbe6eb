import { eq } from "drizzle-orm";
import type { Database, Transaction } from "../platform/db/client.js";
import { users } from "../platform/db/schema.js";

/**
 * Whether a message to `to` may greet the account by the name it typed: only when the account
 * proved the address is theirs (users.email_verified_at) and the message goes to that address.
 * Anyone can sign up with someone else's address and any "name" (templates/free-text.ts).
 */
export async function greetsByName(tx: Database | Transaction, userId: string | null, to: string): Promise<boolean> {
  if (!userId) return false;
  const [account] = await tx
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(account?.verifiedAt) && account?.email.toLowerCase() === to.toLowerCase();
}
