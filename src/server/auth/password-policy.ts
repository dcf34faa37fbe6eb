import { PASSWORD_MAX, PASSWORD_MIN } from "#domain/limits.js";
import { badRequest, HttpError } from "../platform/errors.js";

export const PASSWORD_TOO_SHORT_MESSAGE = `Choose a password of at least ${PASSWORD_MIN} characters.`;
export const PASSWORD_TOO_COMMON_MESSAGE =
  "This password is too common: it appears in lists of leaked passwords. Choose another.";

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * The ~18,000 passwords of at least PASSWORD_MIN characters in zxcvbn-ts's list of the most
 * common leaked ones (shorter ones are refused by length anyway), lower-cased. Loaded on the
 * first new password, not at boot: the list is ~400 KB of JavaScript that most starts never need.
 * Server-only: the storefront's bundle must never carry it.
 */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import("@zxcvbn-ts/language-common")
    .then(({ dictionary }) => {
      const long = dictionary["passwords-common"].filter((password) => password.length >= PASSWORD_MIN);
      return new Set(long.map((password) => password.toLowerCase()));
    })
    .catch((error: unknown) => {
      // A failed load is tried again by the next request instead of being remembered.
      commonPasswords = undefined;
      throw error;
    });
  return commonPasswords;
}

/** Why `password` may not be a new password, or null when it may. Case does not make a common password rare. */
export async function passwordProblem(password: string): Promise<string | null> {
  if (password.length < PASSWORD_MIN) return PASSWORD_TOO_SHORT_MESSAGE;
  if (password.length > PASSWORD_MAX) return `Choose a password of at most ${PASSWORD_MAX} characters.`;
  const common = await loadCommonPasswords();
  if (common.has(password.toLowerCase())) return PASSWORD_TOO_COMMON_MESSAGE;
  return null;
}

/** Refuses a new password (sign up, reset, change) with 400 and a message a person can act on. */
export async function assertAcceptablePassword(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem === null) return;
  throw problem === PASSWORD_TOO_COMMON_MESSAGE
    ? new HttpError(400, problem, "PASSWORD_TOO_COMMON")
    : badRequest(problem, "VALIDATION_FAILED");
}
