import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Bindings, ChildLoggerOptions } from "fastify/types/logger.js";
import type { LogFn } from "pino";

/**
 * Request ids: this process's random prefix and a counter, unique across instances and restarts
 * without a random UUID per request (which, with its header, cost a catalogue read 3-4 µs). The
 * caller's own X-Request-Id is never used as ours (anyone can send any): it is kept beside it as
 * the client's claim (clientRequestId).
 */
export function requestIds(): (request: IncomingMessage) => string {
  const prefix = randomBytes(9).toString("base64url");
  let counter = 0;
  return () => {
    counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
    return `${prefix}-${counter.toString(36)}`;
  };
}

/** The caller's X-Request-Id when it is a sane one (a proxy's, or a support case's): a claim, not ours. */
export function clientRequestId(request: { headers: IncomingHttpHeaders }): string | null {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : null;
}

/** Query parameters whose values are secrets (a password reset link's token): never written to a log. */
const SECRET_PARAMETERS = /([?&](?:token|code)=)[^&#]*/gi;

/** The URL as a log line or an audit record may show it: secret parameters replaced. */
export function loggedUrl(url: string): string {
  return url.includes("=") ? url.replace(SECRET_PARAMETERS, "$1[redacted]") : url;
}

/** A read slower than this is logged at info level like any write. */
const SLOW_REQUEST_MS = 1_000;

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type Level = (typeof LEVELS)[number];

/** An answered request as its access line shows it. */
export interface Completed {
  method: string;
  url: string;
  statusCode: number;
  /** Milliseconds from taking the request to handing the last byte to the system. */
  responseTime: number;
  headers: IncomingHttpHeaders;
}

/**
 * The level of an answer's access line: failures at error, writes, refusals and slow answers at
 * info, a read that went well (a cached catalogue answer, a page, an asset) at debug.
 */
export function completedLevel({ method, statusCode, responseTime }: Completed, error?: Error | null): Level {
  if (error) return "error";
  const routine = (method === "GET" || method === "HEAD") && statusCode < 400 && responseTime < SLOW_REQUEST_MS;
  return routine ? "debug" : "info";
}

/** The access line's fields: the URL without its secrets, and the caller's own request id beside ours. */
export function completedLine({ method, url, statusCode, responseTime, headers }: Completed) {
  const claimed = clientRequestId({ headers });
  return {
    method,
    url: loggedUrl(url),
    statusCode,
    responseTime,
    ...(claimed ? { clientRequestId: claimed } : {}),
  };
}

type PinoLike = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger that becomes a real child logger (carrying the request id) only when
 * something is logged at an enabled level. Fastify makes one child per request; for a cached
 * catalogue read that logs nothing at info level, building it was 3% of the request's CPU.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  write(level: Level, args: unknown[]) {
    if (this.#child || this.parent.isLevelEnabled(level)) (this.real()[level] as (...args: unknown[]) => void)(...args);
  }

  isLevelEnabled(level: string): boolean {
    return this.#child ? isEnabled(this.#child, level) : this.parent.isLevelEnabled(level);
  }

  get level() {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  // Defined on the prototype below.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;
}
// The level methods live on the prototype: nothing is allocated per request but the object itself.
for (const level of LEVELS) {
  LazyChildLogger.prototype[level] = function (this: LazyChildLogger, ...args: unknown[]) {
    this.write(level, args);
  } as LogFn;
}

/** Fastify's `childLoggerFactory`: a lazy child of the app's pino logger for each request. */
export function lazyChildLogger(
  this: FastifyInstance,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Only pino can say whether a level is on, and only the parent's level is known before the
  // child exists: another logger, or a route with a log level of its own, gets its child at once.
  if (typeof (logger as Partial<PinoLike>).isLevelEnabled !== "function" || options.level !== undefined) {
    return logger.child(bindings, options);
  }
  return new LazyChildLogger(logger as PinoLike, bindings, options);
}

/**
 * One access line per answer, in place of Fastify's two (its level: completedLevel). A read that
 * went well is logged only at debug, where its line costs nothing: at info it was a seventh of a
 * catalogue read's CPU.
 * At debug level the server also logs each request as it takes it ("incoming request").
 */
export class ShopLogController extends LogController {
  override incomingRequest(request: FastifyRequest) {
    if (!isEnabled(request.log, "debug")) return;
    const claimed = clientRequestId(request);
    request.log.debug(
      { method: request.method, url: loggedUrl(request.url), ...(claimed ? { clientRequestId: claimed } : {}) },
      "incoming request",
    );
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const completed: Completed = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      headers: request.headers,
    };
    const level = completedLevel(completed, error);
    // The line is built only when it will be written: a page from the cache logs nothing at info.
    if (!isEnabled(reply.log, level)) return;
    const line = completedLine(completed);
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log[level](line, "request completed");
  }
}

/** Whether `log` writes `level`; a logger that cannot say is taken to write everything. */
export function isEnabled(log: FastifyBaseLogger, level: string): boolean {
  const { isLevelEnabled } = log as Partial<PinoLike>;
  return typeof isLevelEnabled === "function" ? isLevelEnabled.call(log, level) : true;
}
