import { type SQL, sql } from "drizzle-orm";
import { SA_TIME_ZONE } from "#domain/sa-format.js";

/**
 * South African time in SQL, from the one name of the zone (src/domain/sa-format.ts). Written into
 * the statement's text, not sent as a parameter, so an index on the expression still serves it.
 */

/** PostgreSQL's literal of the zone, for SQL written as text (named statements, raw queries). */
export const SA_ZONE_LITERAL = `'${SA_TIME_ZONE}'`;

const SA_ZONE = sql.raw(SA_ZONE_LITERAL);

/** The South African calendar day of a timestamp. */
export const saDaySql = (at: SQL) => sql`(${at} at time zone ${SA_ZONE})::date`;

/** The instant a South African day (a "YYYY-MM-DD" or a date expression) starts. */
export const saDayStartSql = (day: string | SQL) => sql`((${day})::date::timestamp at time zone ${SA_ZONE})`;
