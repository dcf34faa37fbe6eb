/**
 * How the shop calls a courier's API: JSON over HTTP with a bearer token and a time limit. Every
 * failure becomes a CourierError the caller can fall back from (a quote falls back to the flat price).
 */
export type CourierSend = (url: string, init: RequestInit) => Promise<Response>;

export class CourierError extends Error {
  override name = "CourierError";
  constructor(
    /** timeout: no answer in time; down: no answer or a 5xx; refused: a 4xx, with the vendor's message. */
    readonly kind: "timeout" | "down" | "refused",
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface CourierRequest {
  send: CourierSend;
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

export async function courierJson<T>(
  { send, baseUrl, token, timeoutMs }: CourierRequest,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // Raced as well as aborted: an in-process answer (local mode) does not listen to the signal.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CourierError("timeout", `${path}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const response = await Promise.race([
      send(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller.signal,
      }),
      timeout,
    ]);
    const text = await Promise.race([response.text(), timeout]);
    if (!response.ok) {
      const message = vendorMessage(text) ?? `HTTP ${response.status}`;
      throw new CourierError(response.status >= 500 ? "down" : "refused", message, response.status);
    }
    return JSON.parse(text) as T;
  } catch (error) {
    if (error instanceof CourierError) throw error;
    throw new CourierError("down", `${path}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

function vendorMessage(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === "string") return parsed.message;
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // not JSON: the status says enough
  }
  return null;
}
