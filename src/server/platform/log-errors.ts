import type { FastifyServerOptions } from "fastify";
import { type SerializedError, stdSerializers } from "pino";

/**
 * Fields of a failed query that hold the values it was sent: Drizzle's `params`, and
 * PostgreSQL's `detail` ("Failing row contains (...)", "Key (email)=(...) already exists").
 * A failed insert of a user would otherwise log its password hash and personal details.
 */
const VALUE_FIELDS = new Set(["params", "detail", "parameters", "values"]);

/** Drizzle's DrizzleQueryError writes the parameters into its message and stack after "params:". */
const withoutParams = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "");

/** PostgreSQL echoes a value it cannot read (class 22: `invalid input syntax for type uuid: "..."`). */
const withoutEchoedValue = (text: string) => text.replace(/: ".*"$/s, ': "[redacted]"');

function redacted(error: unknown, seen: Set<unknown>): unknown {
  if (!error || typeof error !== "object" || typeof (error as { message?: unknown }).message !== "string") {
    return error;
  }
  if (seen.has(error) || seen.size > 5) return undefined;
  seen.add(error);
  const source = error as Record<string, unknown> & { message: string; stack?: string; cause?: unknown };
  const copy = Object.create(Object.getPrototypeOf(error)) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (!VALUE_FIELDS.has(key)) copy[key] = source[key];
  }
  const dataError = typeof source.code === "string" && source.code.startsWith("22");
  const clean = (text: string) => (dataError ? withoutEchoedValue(withoutParams(text)) : withoutParams(text));
  copy.message = clean(source.message);
  if (typeof source.stack === "string") copy.stack = clean(source.stack);
  if (source.cause !== undefined) copy.cause = redacted(source.cause, seen);
  return copy;
}

/** What PostgreSQL says about a failure, without values: kept when Drizzle wraps its error. */
const DATABASE_FIELDS = ["code", "constraint", "table", "column", "schema", "routine"] as const;

function databaseFields(error: unknown): Record<string, unknown> | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const fields = current as Record<string, unknown>;
    if (typeof fields.code === "string" && /^[0-9A-Z]{5}$/.test(fields.code)) {
      return Object.fromEntries(
        DATABASE_FIELDS.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]]),
      );
    }
    current = fields.cause;
  }
  return undefined;
}

/**
 * pino's `err` serializer without the values a failed query was sent (see VALUE_FIELDS), and with
 * PostgreSQL's code and constraint lifted from a wrapped cause (pino logs a cause's message only).
 */
export function errWithoutValues(error: Error): SerializedError {
  const serialized = stdSerializers.err(redacted(error, new Set()) as Error);
  // A non-error passes through the standard serializer as it is.
  if (serialized && typeof serialized === "object" && serialized.code === undefined) {
    const fields = databaseFields(error);
    if (fields) Object.assign(serialized, fields);
  }
  return serialized;
}

/** The app's pino options: every logger child of the app serializes `err` without query values. */
export function loggerOptions(
  logger: FastifyServerOptions["logger"] | undefined,
  level: string,
): FastifyServerOptions["logger"] {
  if (logger === false) return false;
  const options = typeof logger === "object" ? logger : { level };
  return { ...options, serializers: { ...options.serializers, err: errWithoutValues } };
}
