/**
 * npm run admin:create -- --username U --email E --password P [--full-name "Full Name"]
 *
 * Creates an admin, or promotes the existing user with that username or e-mail. Uses
 * DATABASE_URL when set, otherwise the shop's embedded PostgreSQL in DATA_DIR.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { eq, or, sql } from "drizzle-orm";
import { registerInput } from "../../domain/schemas/account.js";
import { hashPassword } from "../auth/passwords.js";
import { ConfigError, loadConfig } from "../config.js";
import type { Database } from "../db/client.js";
import { openDatabase } from "../db/open.js";
import { users } from "../db/schema.js";
import { duplicateUserMessage } from "../users/queries.js";

const USAGE = `Usage: npm run admin:create -- --username <name> --email <address> --password <password> [--full-name <name>]

Creates an admin account, or promotes an existing user (found by username or e-mail) to admin.`;

/** A mistake in what the operator typed: printed as is, with exit code 1. */
export class AdminInputError extends Error {
  override name = "AdminInputError";
}

export interface AdminArgs {
  username?: string;
  email?: string;
  password?: string;
  fullName?: string;
  help: boolean;
}

export function parseAdminArgs(argv: readonly string[]): AdminArgs {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        username: { type: "string", short: "u" },
        email: { type: "string", short: "e" },
        password: { type: "string", short: "p" },
        "full-name": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
    return {
      username: values.username?.trim() || undefined,
      email: values.email?.trim() || undefined,
      password: values.password,
      fullName: values["full-name"]?.trim() || undefined,
      help: values.help ?? false,
    };
  } catch (error) {
    throw new AdminInputError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

/** Catches typos before any database is started: each value given must be one a user could have. */
export function checkTypedValues(args: AdminArgs): void {
  if (!args.username && !args.email) throw new AdminInputError(`Give at least --username or --email.\n\n${USAGE}`);
  const given = registerInput
    .pick({ username: true, email: true, password: true })
    .partial()
    .safeParse({ username: args.username, email: args.email, password: args.password });
  if (!given.success) {
    const problems = given.error.issues.map((issue) => `  ${issue.message}`).join("\n");
    throw new AdminInputError(`${problems}\n\n${USAGE}`);
  }
}

export type AdminOutcome =
  | { action: "created"; username: string; email: string }
  | { action: "promoted"; username: string; email: string; passwordIgnored: boolean }
  | { action: "already-admin"; username: string; email: string; passwordIgnored: boolean };

/** Creates the admin, or promotes the user that the username or e-mail names. */
export async function createOrPromoteAdmin(db: Database, args: AdminArgs): Promise<AdminOutcome> {
  if (!args.username && !args.email) throw new AdminInputError(`Give at least --username or --email.\n\n${USAGE}`);

  const matches = await db
    .select({ id: users.id, username: users.username, email: users.email, isAdmin: users.isAdmin })
    .from(users)
    .where(
      or(
        args.username ? sql`lower(${users.username}) = lower(${args.username})` : undefined,
        args.email ? sql`lower(${users.email}) = lower(${args.email})` : undefined,
      ),
    );
  if (matches.length > 1) {
    const names = matches.map((match) => `${match.username} (${match.email})`).join(" and ");
    throw new AdminInputError(
      `The username and the e-mail belong to different users: ${names}. Give just one of them.`,
    );
  }

  const existing = matches[0];
  if (existing) {
    const passwordIgnored = args.password !== undefined;
    if (existing.isAdmin) return { action: "already-admin", ...pick(existing), passwordIgnored };
    await db.update(users).set({ isAdmin: true }).where(eq(users.id, existing.id));
    return { action: "promoted", ...pick(existing), passwordIgnored };
  }

  const parsed = registerInput.safeParse({
    username: args.username,
    email: args.email,
    password: args.password,
    fullName: args.fullName ?? args.username,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.message}`).join("\n");
    throw new AdminInputError(`No user has that username or e-mail, and a new admin needs:\n${problems}\n\n${USAGE}`);
  }
  const { password, ...profile } = parsed.data;
  try {
    await db.insert(users).values({ ...profile, passwordHash: await hashPassword(password), isAdmin: true });
  } catch (error) {
    const duplicate = duplicateUserMessage(error);
    if (duplicate) throw new AdminInputError(duplicate);
    throw error;
  }
  return { action: "created", username: profile.username, email: profile.email };
}

function pick(user: { username: string; email: string }) {
  return { username: user.username, email: user.email };
}

export function describeOutcome(outcome: AdminOutcome): string {
  const who = `${outcome.username} (${outcome.email})`;
  const kept = "passwordIgnored" in outcome && outcome.passwordIgnored ? " Their password is unchanged." : "";
  switch (outcome.action) {
    case "created":
      return `Created admin ${who}. They can log in now.`;
    case "promoted":
      return `Promoted ${who} to admin.${kept}`;
    case "already-admin":
      return `${who} is already an admin; nothing changed.${kept}`;
  }
}

async function main() {
  const args = parseAdminArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  checkTypedValues(args);
  const config = loadConfig();
  const database = await openDatabase(config, { log: (line) => console.error(`[db] ${line}`) });
  try {
    console.log(describeOutcome(await createOrPromoteAdmin(database.db, args)));
  } finally {
    await database.close();
  }
}

function isEntryPoint() {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    if (error instanceof AdminInputError || error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error("Could not create the admin:", error);
    }
    process.exit(1);
  });
}
