import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { ErrorCode } from "#domain/error-codes.js";
import { pgErrorCode, UNIQUE_VIOLATION } from "./db/errors.js";

/**
 * A failure the client can act on: its status, message and code go to the client as
 * `{ message, code }` (the codes: src/domain/error-codes.ts, docs/api-errors.md).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, code: ErrorCode = "VALIDATION_FAILED") => new HttpError(400, message, code);
export const unauthorized = (message = "Authentication required", code: ErrorCode = "NOT_LOGGED_IN") =>
  new HttpError(401, message, code);
export const forbidden = (message = "You do not have permission to do that", code: ErrorCode = "FORBIDDEN") =>
  new HttpError(403, message, code);
export const notFound = (message = "Not found", code: ErrorCode = "NOT_FOUND") => new HttpError(404, message, code);
/** A 409 means too many things to guess its code: every site names it. */
export const conflict = (message: string, code: ErrorCode) => new HttpError(409, message, code);

/**
 * node-postgres / PostgreSQL errors that mean "the database cannot serve now" (unreachable, or
 * out of disk, memory or connections), not "the request is bad": 503 with Retry-After.
 */
const DATABASE_DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  // Class 53, insufficient resources: the server cannot do it now, whatever was asked.
  "53000", // insufficient_resources
  "53100", // disk_full
  "53200", // out_of_memory
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
]);

export function isDatabaseDown(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && DATABASE_DOWN_CODES.has(code)) return true;
    if (
      typeof message === "string" &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
        message,
      )
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Database refusals that can only come from what the client sent, as a last line of defence
 * behind the routes' own checks: a value PostgreSQL cannot store (class 22, such as a NUL
 * character in text, which JSON allows and PostgreSQL does not), a constraint it breaks, a key
 * someone else took first (class 23), an index entry too large (54000).
 */
export function clientDataError(error: unknown): HttpError | null {
  const code = pgErrorCode(error);
  if (!code) return null;
  if (code.startsWith("22") || code === "54000") {
    return new HttpError(
      400,
      "The request holds a value the shop cannot store. Please check what you entered.",
      "DATA_REFUSED",
    );
  }
  if (code === UNIQUE_VIOLATION) return new HttpError(409, "That already exists.", "ALREADY_EXISTS");
  if (code === "23503")
    return new HttpError(
      409,
      "Something this refers to has changed or no longer exists. Please reload and try again.",
      "REFERENCE_CHANGED",
    );
  if (code.startsWith("23"))
    return new HttpError(400, "The request breaks one of the shop's rules for this data.", "DATA_REFUSED");
  return null;
}

function validationMessage(error: { validation: { message?: string; instancePath?: string; params?: unknown }[] }) {
  const first = error.validation[0];
  if (!first) return "Invalid request";
  const issue = (first.params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue;
  const field = issue?.path?.map(String).join(".") || first.instancePath?.replace(/^\//, "").replace(/\//g, ".") || "";
  const message = first.message ?? "is invalid";
  if (!field || message.toLowerCase().startsWith(field.split(".").pop()?.toLowerCase() ?? "\0")) return message;
  return `${field}: ${message}`;
}

/** Fastify's own 4xx errors (body parsing, content type, a bad URL...) by status. */
function clientErrorOf(error: FastifyError, status: number): { message: string; code: ErrorCode } {
  if (status === 413) return { message: "Request body is too large", code: "PAYLOAD_TOO_LARGE" };
  if (status === 415)
    return { message: "Unsupported content type: send application/json", code: "UNSUPPORTED_MEDIA_TYPE" };
  if (
    error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
    error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
    error instanceof SyntaxError
  ) {
    return { message: "Malformed JSON body", code: "MALFORMED_BODY" };
  }
  const message = error.message || "Bad request";
  if (status === 401) return { message, code: "NOT_LOGGED_IN" };
  if (status === 403) return { message, code: "FORBIDDEN" };
  if (status === 404 || status === 405) return { message, code: "NOT_FOUND" };
  if (status === 429) return { message, code: "RATE_LIMITED" };
  // Any other body-parsing refusal (a bad Content-Length, say) is a malformed body; the rest, a bad request.
  if (error.code?.startsWith("FST_ERR_CTP_")) return { message, code: "MALFORMED_BODY" };
  return { message, code: "VALIDATION_FAILED" };
}

const UNAVAILABLE = {
  message: "The shop is temporarily unavailable. Please try again in a moment.",
  code: "SERVICE_UNAVAILABLE",
} as const;

/**
 * Fastify's `frameworkErrors`: failures met before routing, which never reach the error handler
 * (a URL that does not decode, such as `/api/users/%E0%A4%A`; a parameter over maxParamLength).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, "request failed");
    return reply
      .status(500)
      .send({ message: "Something went wrong on our side. Please try again.", code: "INTERNAL_ERROR" });
  }
  return reply.status(status).send({ message: "The address is not a valid URL", code: "VALIDATION_FAILED" });
}

/** The one error boundary: every failure becomes `{ message, code }`; 5xx details go to the log only. */
export function registerErrorHandling(app: FastifyInstance) {
  // While the server closes, new requests get 503 with a code (Fastify's own return503OnClosing
  // answer is a fixed body without one, so app.ts turns it off and this hook answers instead).
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onRequest", (_request, reply, done) => {
    if (!closing) return done();
    reply.status(503).header("retry-after", "5").send(UNAVAILABLE);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ message: validationMessage(error), code: "VALIDATION_FAILED" });
    }
    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, "database unavailable");
      return reply.status(503).header("retry-after", "5").send(UNAVAILABLE);
    }
    const refused = clientDataError(error);
    if (refused) {
      request.log.warn({ err: error }, "database refused the request's data");
      return reply.status(refused.statusCode).send({ message: refused.message, code: refused.code });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send(clientErrorOf(error, status));
    request.log.error({ err: error }, "request failed");
    return reply
      .status(500)
      .send({ message: "Something went wrong on our side. Please try again.", code: "INTERNAL_ERROR" });
  });
}
