import { badRequest } from "./errors.js";

/**
 * Keyset cursors of the admin's lists: the last row's (time, id), as opaque base64url text. A
 * page continues strictly after it, so rows added meanwhile never shift the next page.
 */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The (time, id) of a cursor, or a 400 when it is not one this server made. */
export function decodeCursor(cursor: string): { at: Date; id: string } {
  const [time = "", id = ""] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const at = new Date(time);
  if (Number.isNaN(at.getTime()) || !UUID.test(id) || at.toISOString() !== time) {
    throw badRequest("cursor must be a nextCursor from a previous page");
  }
  return { at, id };
}

/** The text of a partial, case-insensitive match: `%q%` with LIKE's own wildcards taken literally. */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
