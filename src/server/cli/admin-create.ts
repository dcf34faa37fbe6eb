/**
 * npm run admin:create -- --username U --email E [--full-name "Full Name"]
 * npm run admin:create -- --promote --username U --email E
 *
 * Creates a new admin, or with --promote makes an existing user an admin. The password is asked
 * for at a prompt without echo, or read from standard input when that is not a terminal; never
 * from the command line. Uses DATABASE_URL when set, otherwise the shop's embedded PostgreSQL in
 * DATA_DIR.
 */
import { parseArgs } from "node:util";
import { eq, or, sql } from "drizzle-orm";
import { registerInput } from "#domain/schemas/account.js";
import { duplicateUserError } from "../auth/accounts.js";
import { passwordProblem } from "../auth/password-policy.js";
import { hashPassword } from "../auth/passwords.js";
import { ConfigError, loadConfig, loadEnvFile } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { DataDirInUseError } from "../platform/db/data-dir-lock.js";
import { NoClusterError } from "../platform/db/embedded.js";
import { openDatabase } from "../platform/db/open.js";
import { users } from "../platform/db/schema.js";
import { errWithoutValues } from "../platform/log-errors.js";
import { isEntryPoint } from "./entry-point.js";

const USAGE = `Usage:
  npm run admin:create -- --username <name> --email <address> [--full-name <name>]
      Creates a new admin account.
  npm run admin:create -- --promote --username <name> --email <address>
      Makes an existing user an admin: the username and the e-mail must both be that user's.

A new admin's password is asked for at a prompt (not shown as it is typed), or read from the
first line of standard input when that is not a terminal:
  printf '%s\\n' "$ADMIN_PASSWORD" | npm run admin:create -- --username <name> --email <address>`;

const PASSWORD_REFUSED = `--password is not accepted: a password on the command line is kept in the shell's history and shown to every user of this machine in the process list.
Leave it out and type it at the prompt, or pipe it on standard input:
  printf '%s\\n' "$ADMIN_PASSWORD" | npm run admin:create -- --username <name> --email <address>`;

/** A mistake in what the operator typed: printed as is, with exit code 1. */
export class AdminInputError extends Error {
  override name = "AdminInputError";
}

export interface AdminArgs {
  username?: string;
  email?: string;
  fullName?: string;
  promote: boolean;
  help: boolean;
}

export function parseAdminArgs(argv: readonly string[]): AdminArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new AdminInputError(`${(error as Error).message}\n\n${USAGE}`);
  }
  // Parsed as an option (so --password=x and -px are caught too), only to be refused.
  if (values.password !== undefined) throw new AdminInputError(PASSWORD_REFUSED);
  return {
    username: values.username?.trim() || undefined,
    email: values.email?.trim() || undefined,
    fullName: values["full-name"]?.trim() || undefined,
    promote: values.promote ?? false,
    help: values.help ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      username: { type: "string", short: "u" },
      email: { type: "string", short: "e" },
      password: { type: "string", short: "p" },
      "full-name": { type: "string" },
      promote: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
}

/** Catches typos before any password is asked for or database started. */
export function checkTypedValues(args: AdminArgs): { username: string; email: string } {
  const missing = [args.username ? null : "--username", args.email ? null : "--email"].filter(Boolean);
  if (missing.length > 0) throw new AdminInputError(`Give ${missing.join(" and ")}.\n\n${USAGE}`);
  if (args.promote && args.fullName) {
    throw new AdminInputError(`--full-name is for a new admin; --promote leaves the user's profile as it is.`);
  }
  const given = registerInput
    .pick({ username: true, email: true })
    .safeParse({ username: args.username, email: args.email });
  if (!given.success) throw new AdminInputError(`${problemsOf(given.error.issues)}\n\n${USAGE}`);
  return given.data;
}

/** The password rules of sign-up's form (length): checked at the prompt; createAdmin screens it against leaked ones too. */
export function checkPassword(password: string): string {
  const checked = registerInput.shape.password.safeParse(password);
  if (!checked.success) throw new AdminInputError(problemsOf(checked.error.issues));
  return checked.data;
}

function problemsOf(issues: readonly { message: string }[]): string {
  return issues.map((issue) => `  ${issue.message}`).join("\n");
}

/** Where the password comes from: a terminal to prompt on, or a pipe whose first line is it. */
export interface PasswordSource {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
  setEncoding: (encoding: BufferEncoding) => unknown;
  on: (event: "data" | "end" | "error", listener: (chunk?: unknown) => void) => unknown;
  off: (event: "data" | "end" | "error", listener: (chunk?: unknown) => void) => unknown;
  resume: () => unknown;
  pause: () => unknown;
}

/**
 * A new admin's password: typed twice at a prompt that does not echo it when `input` is a
 * terminal, otherwise the first line of `input` (a pipe or a file). Checked against the rules.
 */
export async function readPassword(
  input: PasswordSource = process.stdin,
  output: { write: (text: string) => unknown } = process.stderr,
): Promise<string> {
  if (input.isTTY && input.setRawMode) {
    const password = checkPassword(await promptHidden("Password for the new admin: ", input, output));
    const again = await promptHidden("The same password again: ", input, output);
    if (again !== password) throw new AdminInputError("The two passwords differ; nothing was changed.");
    return password;
  }
  const text = await readAll(input);
  const firstLine = text.split("\n")[0]?.replace(/\r$/, "") ?? "";
  if (firstLine === "") {
    throw new AdminInputError(
      `No password on standard input: type it at the prompt (run the command in a terminal), or pipe it:\n  printf '%s\\n' "$ADMIN_PASSWORD" | npm run admin:create -- --username <name> --email <address>`,
    );
  }
  return checkPassword(firstLine);
}

function readAll(input: PasswordSource): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    input.setEncoding("utf8");
    const onData = (chunk?: unknown) => {
      text += String(chunk);
    };
    input.on("data", onData);
    input.on("error", (error) => reject(error));
    input.on("end", () => {
      input.off("data", onData);
      resolve(text);
    });
    input.resume();
  });
}

/** Reads one line from a terminal in raw mode, echoing nothing. Ctrl-C or Ctrl-D at an empty line cancels. */
function promptHidden(question: string, input: PasswordSource, output: { write: (text: string) => unknown }) {
  return new Promise<string>((resolve, reject) => {
    let typed: string[] = [];
    const finish = (outcome: () => void) => {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
      output.write("\n");
      outcome();
    };
    const onData = (chunk?: unknown) => {
      for (const char of String(chunk)) {
        if (char === "\r" || char === "\n") return finish(() => resolve(typed.join("")));
        if (char === "\u0003" || (char === "\u0004" && typed.length === 0)) {
          return finish(() => reject(new AdminInputError("Cancelled; nothing was changed.")));
        }
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else if (char >= " ") typed.push(char);
      }
    };
    output.write(question);
    input.setRawMode?.(true);
    input.setEncoding("utf8");
    input.on("data", onData);
    input.resume();
  });
}

export type AdminOutcome =
  | { action: "created"; username: string; email: string }
  | { action: "promoted"; username: string; email: string }
  | { action: "already-admin"; username: string; email: string };

const sameText = (column: typeof users.username | typeof users.email, value: string) =>
  sql`lower(${column}) = lower(${value})`;

/** Creates a new admin; refuses when the username or the e-mail is already someone's. */
export async function createAdmin(
  db: Database,
  input: { username: string; email: string; password: string; fullName?: string | undefined },
): Promise<AdminOutcome> {
  const parsed = registerInput.safeParse({ ...input, fullName: input.fullName ?? input.username });
  if (!parsed.success) throw new AdminInputError(`A new admin needs:\n${problemsOf(parsed.error.issues)}`);
  const [taken] = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(sameText(users.username, parsed.data.username), sameText(users.email, parsed.data.email)))
    .limit(1);
  if (taken) {
    throw new AdminInputError(
      `${taken.username} (${taken.email}) already has that username or e-mail, so no new admin was created. To make an existing user an admin, run again with --promote and that user's username and e-mail.`,
    );
  }
  const { password, ...profile } = parsed.data;
  // An admin's password is screened like anyone's: not one from the lists of leaked passwords.
  const problem = await passwordProblem(password);
  if (problem) throw new AdminInputError(problem);
  try {
    await db.insert(users).values({ ...profile, passwordHash: await hashPassword(password), isAdmin: true });
  } catch (error) {
    const duplicate = duplicateUserError(error);
    if (duplicate) throw new AdminInputError(duplicate.message);
    throw error;
  }
  return { action: "created", username: profile.username, email: profile.email };
}

/**
 * Makes an existing user an admin, only when the username and the e-mail both name that one user:
 * a typo in either cannot hand admin rights to someone else. Their password is not touched.
 */
export async function promoteToAdmin(db: Database, input: { username: string; email: string }): Promise<AdminOutcome> {
  const [found] = await db
    .select({ id: users.id, username: users.username, email: users.email, isAdmin: users.isAdmin })
    .from(users)
    .where(sameText(users.username, input.username))
    .limit(1);
  if (!found) throw new AdminInputError(`No user has the username ${input.username}; nothing was changed.`);
  if (found.email.toLowerCase() !== input.email.toLowerCase()) {
    throw new AdminInputError(
      `${input.email} is not the e-mail of the user ${found.username}; nothing was changed. --promote needs the username and the e-mail of one and the same user.`,
    );
  }
  const who = { username: found.username, email: found.email };
  if (found.isAdmin) return { action: "already-admin", ...who };
  await db.update(users).set({ isAdmin: true }).where(eq(users.id, found.id));
  return { action: "promoted", ...who };
}

export function describeOutcome(outcome: AdminOutcome): string {
  const who = `${outcome.username} (${outcome.email})`;
  switch (outcome.action) {
    case "created":
      return `Created admin ${who}. They can log in now.`;
    case "promoted":
      return `Promoted ${who} to admin. Their password is unchanged.`;
    case "already-admin":
      return `${who} is already an admin; nothing changed.`;
  }
}

/** What admin:create prints after the outcome: how the admin sets up their second factor. */
export function enrolmentHint(required: boolean, publicUrl: string): string {
  return [
    `Next: log in at ${publicUrl}, open My Account (${publicUrl}/profile) and choose "Set up two-step sign-in":`,
    "scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...),",
    "type the 6-digit code it shows, and keep the ten recovery codes somewhere safe.",
    required
      ? "ADMIN_2FA=required: the admin panel stays shut until this is done."
      : "ADMIN_2FA=optional: the admin panel opens without it, but every admin should set it up.",
  ].join("\n");
}

async function main() {
  const args = parseAdminArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const who = checkTypedValues(args);
  loadEnvFile();
  const config = loadConfig();
  const password = args.promote ? undefined : await readPassword();
  const database = await openDatabase(config, { log: (line) => console.error(`[db] ${line}`) });
  try {
    const outcome =
      password === undefined
        ? await promoteToAdmin(database.db, who)
        : await createAdmin(database.db, { ...who, password, fullName: args.fullName });
    console.log(describeOutcome(outcome));
    console.log(enrolmentHint(config.adminSecondFactor.required, config.publicUrl));
  } finally {
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    if (
      error instanceof AdminInputError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError ||
      error instanceof NoClusterError
    ) {
      console.error(error.message);
    } else {
      // Never the values a failed query was sent (a password hash, personal details).
      console.error("Could not create the admin:", error instanceof Error ? errWithoutValues(error) : error);
    }
    process.exit(1);
  });
}
