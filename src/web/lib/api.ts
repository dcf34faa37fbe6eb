import { readJson } from "./storage";

/** The stored user's id, sent as x-user-id (SPEC.md section 7). The server trusts only the session. */
function storedUserId(): string | null {
  const user = readJson(
    "user",
    (value): value is { id: string } =>
      typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string",
  );
  return user?.id ?? null;
}

function headers(json: boolean): HeadersInit {
  const result: Record<string, string> = {};
  if (json) result["Content-Type"] = "application/json";
  const userId = storedUserId();
  if (userId) result["x-user-id"] = userId;
  return result;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Listeners told when the server answers 401 to a signed-in browser: its session is gone. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void) {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}
function noteStatus(status: number) {
  if (status === 401 && storedUserId()) for (const listener of unauthorizedListeners) listener();
}

/**
 * JSON caller: sends JSON and x-user-id; a non-success answer throws with the response's
 * message field, or "HTTP {status}" when it has none (SPEC.md section 7).
 */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "include",
  });
  if (!response.ok) {
    noteStatus(response.status);
    let message = `HTTP ${response.status}`;
    try {
      const data = (await response.json()) as { message?: unknown };
      if (typeof data.message === "string" && data.message) message = data.message;
    } catch {
      // keep HTTP status
    }
    throw new ApiError(response.status, message);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The default query fetcher: GET with cookies; failures throw "status: body text". */
export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: headers(false), credentials: "include" });
  if (!response.ok) {
    noteStatus(response.status);
    const text = (await response.text()) || response.statusText;
    throw new ApiError(response.status, `${response.status}: ${text}`);
  }
  return (await response.json()) as T;
}
