import http from "node:http";

/** What became of one request: a complete answer, or how it failed. */
export interface Outcome {
  id: string;
  label: string;
  status: number | null;
  body: string;
  /** The whole answer arrived (headers and every byte of the body). */
  complete: boolean;
  /** The client-side failure (ECONNRESET, ECONNREFUSED, socket hang up, timeout...), when there was one. */
  error: string | null;
  startedAt: number;
  endedAt: number;
}

export interface SendOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** x-request-id, so the server's log names the request; also the outcome's id. */
  id: string;
  label?: string;
  agent?: http.Agent;
  /** Sends the body in two halves with this pause between them (a slow client). */
  trickleMs?: number;
  timeoutMs?: number;
}

/** One HTTP request with node:http, reporting exactly whether the answer was cut. */
export function send(baseUrl: string, options: SendOptions): Promise<Outcome> {
  const url = new URL(options.path, baseUrl);
  const startedAt = Date.now();
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (partial: Partial<Outcome>) => {
      if (settled) return;
      settled = true;
      resolve({
        id: options.id,
        label: options.label ?? `${options.method ?? "GET"} ${options.path}`,
        status: null,
        body: "",
        complete: false,
        error: null,
        startedAt,
        endedAt: Date.now(),
        ...partial,
      });
    };
    const request = http.request(
      url,
      {
        method: options.method ?? "GET",
        agent: options.agent ?? false,
        headers: {
          "x-request-id": options.id,
          ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          finish({
            status: response.statusCode ?? null,
            body: Buffer.concat(chunks).toString(),
            complete: response.complete,
            error: response.complete ? null : "answer cut short",
          }),
        );
        response.on("error", (error: NodeJS.ErrnoException) =>
          finish({ status: response.statusCode ?? null, error: error.code ?? error.message }),
        );
        response.on("aborted", () => finish({ status: response.statusCode ?? null, error: "answer aborted" }));
      },
    );
    request.setTimeout(options.timeoutMs ?? 30_000, () => {
      request.destroy(new Error("client timeout"));
    });
    request.on("error", (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
    if (!body) {
      request.end();
    } else if (options.trickleMs) {
      const half = Math.floor(body.length / 2);
      request.write(body.subarray(0, half));
      setTimeout(() => request.end(body.subarray(half)), options.trickleMs);
    } else {
      request.end(body);
    }
  });
}

/** JSON over fetch with a timeout; `cookie` carries a session. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  { body, cookie, timeoutMs = 15_000 }: { body?: unknown; cookie?: string; timeoutMs?: number } = {},
): Promise<{ status: number; json: unknown; text: string; headers: Headers; ms: number }> {
  const started = performance.now();
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json, text, headers: response.headers, ms: performance.now() - started };
}

/** The `sid=...` cookie a login answer set. */
export function sessionCookie(headers: Headers): string {
  for (const line of headers.getSetCookie()) {
    const match = /^sid=([^;]+)/.exec(line);
    if (match?.[1]) return `sid=${match[1]}`;
  }
  throw new Error("the answer set no sid cookie");
}
