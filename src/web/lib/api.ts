import type { ErrorCode } from "#domain/error-codes.js";
import { readStoredUserId } from "./stored-user";

/** The server's codes, plus the client's own when no answer (or no code) came back. */
export type ApiErrorCode = ErrorCode | "NETWORK_ERROR";

/** Messages fit to show a person when the server's answer carried none. */
const FALLBACK_MESSAGES: Partial<Record<ApiErrorCode, string>> = {
  NETWORK_ERROR: "We could not reach the shop. Check your connection and try again.",
  NOT_LOGGED_IN: "Please log in and try again.",
  FORBIDDEN: "You do not have permission to do that.",
  NOT_FOUND: "We could not find what you were looking for.",
  RATE_LIMITED: "Too many attempts. Please wait a minute and try again.",
  SERVICE_UNAVAILABLE: "The shop is busy right now. Please try again in a minute.",
  PAYLOAD_TOO_LARGE: "That is more than the shop can take at once.",
};
const GENERIC_MESSAGE = "Something went wrong on our side. Please try again.";

/** The code of an answer that carried none, from its status (servers older than the error codes). */
function codeOfStatus(status: number): ApiErrorCode {
  if (status === 400) return "VALIDATION_FAILED";
  if (status === 401) return "NOT_LOGGED_IN";
  if (status === 403) return "FORBIDDEN";
  if (status === 404) return "NOT_FOUND";
  if (status === 413) return "PAYLOAD_TOO_LARGE";
  if (status === 429) return "RATE_LIMITED";
  if (status === 503) return "SERVICE_UNAVAILABLE";
  return "INTERNAL_ERROR";
}

/**
 * Every failed call: the answer's status (0 when none came), its `code` to branch on, and a
 * message for people (the server's, or one of ours; never raw JSON or a status line).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** False when the message is ours because the server gave none. */
    readonly fromServer: boolean,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The message to show for a failed call: the server's, or `fallback` when it gave none. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

/** Listeners told when the server no longer knows a signed-in browser's session. */
const sessionLostListeners = new Set<() => void>();
export function onSessionLost(listener: () => void) {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

/**
 * A code as the server writes them. The server answers only codes of src/domain/error-codes.ts (its
 * error schema refuses others: tests/helpers/app.ts checks every answer), so the browser checks the
 * shape and does not ship the list of names in its first load.
 */
function looksLikeCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && /^[A-Z][A-Z0-9_]{1,63}$/.test(value);
}

async function errorOf(response: Response): Promise<ApiError> {
  let data: { message?: unknown; code?: unknown } = {};
  try {
    data = (await response.json()) as typeof data;
  } catch {
    // No JSON body (a proxy's page, an empty answer): the status decides.
  }
  const code = looksLikeCode(data?.code) ? data.code : codeOfStatus(response.status);
  const serverMessage = typeof data?.message === "string" && data.message.trim() ? data.message : null;
  return new ApiError(
    response.status,
    code,
    serverMessage ?? FALLBACK_MESSAGES[code] ?? GENERIC_MESSAGE,
    serverMessage !== null,
  );
}

/**
 * The one way the browser calls the API: JSON in (or FormData for an upload) and JSON out, cookies and x-user-id sent. A failure
 * of any kind (no answer, an error answer, a body that is not JSON) throws an ApiError.
 */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  // A FormData body (a photo upload) sets its own multipart type and boundary.
  const form = typeof FormData !== "undefined" && body instanceof FormData;
  if (body !== undefined && !form) headers["Content-Type"] = "application/json";
  const userId = readStoredUserId();
  if (userId) headers["x-user-id"] = userId;

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      credentials: "include",
    });
  } catch {
    throw new ApiError(0, "NETWORK_ERROR", FALLBACK_MESSAGES.NETWORK_ERROR ?? GENERIC_MESSAGE, false);
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if ((error.code === "NOT_LOGGED_IN" || error.code === "SESSION_MISMATCH") && userId) {
      for (const listener of sessionLostListeners) listener();
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  try {
    return (text ? JSON.parse(text) : undefined) as T;
  } catch {
    throw new ApiError(response.status, "INTERNAL_ERROR", GENERIC_MESSAGE, false);
  }
}

export function apiGet<T>(url: string): Promise<T> {
  return apiRequest<T>("GET", url);
}
