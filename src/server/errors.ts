import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { pgErrorCode, UNIQUE_VIOLATION } from "./db/errors.js";

/** A failure the client can act on: its status and message go to the client as `{ message }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = "Authentication required") => new HttpError(401, message);
export const forbidden = (message = "You do not have permission to do that") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** node-postgres / PostgreSQL errors that mean "the database is unreachable", not "the request is bad". */
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
    return new HttpError(400, "The request holds a value the shop cannot store. Please check what you entered.");
  }
  if (code === UNIQUE_VIOLATION) return new HttpError(409, "That already exists.");
  if (code === "23503")
    return new HttpError(409, "Something this refers to has changed or no longer exists. Please reload and try again.");
  if (code.startsWith("23")) return new HttpError(400, "The request breaks one of the shop's rules for this data.");
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

/** The one error boundary: every failure becomes `{ message }`; 5xx details go to the log only. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ message: validationMessage(error) });
    }
    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, "database unavailable");
      return reply
        .status(503)
        .header("retry-after", "5")
        .send({ message: "The shop is temporarily unavailable. Please try again in a moment." });
    }
    const refused = clientDataError(error);
    if (refused) {
      request.log.warn({ err: error }, "database refused the request's data");
      return reply.status(refused.statusCode).send({ message: refused.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? "Request body is too large"
          : status === 415
            ? "Unsupported content type: send application/json"
            : error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
                error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
                error instanceof SyntaxError
              ? "Malformed JSON body"
              : error.message || "Bad request";
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({ message: "Something went wrong on our side. Please try again." });
  });
}
