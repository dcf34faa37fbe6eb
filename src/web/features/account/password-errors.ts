import { ApiError } from "#web/lib/api.js";

/**
 * The server's refusal of a new password that only it can judge (one from the lists of leaked
 * passwords, which stay off the browser's bundle), to show beside the password field.
 */
export function passwordFieldError(error: unknown): string | undefined {
  return error instanceof ApiError && error.code === "PASSWORD_TOO_COMMON" ? error.message : undefined;
}

/** The server's "that is not your current password", to show beside the current-password field. */
export function currentPasswordFieldError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.code === "CURRENT_PASSWORD_WRONG" || error.code === "CURRENT_PASSWORD_REQUIRED"
    ? error.message
    : undefined;
}
