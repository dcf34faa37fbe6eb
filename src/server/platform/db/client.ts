import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema.js";

export type Database = NodePgDatabase<typeof schema>;

export function createDatabase(url: string, poolSize = 10) {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Fail fast when PostgreSQL is down, instead of queueing requests behind a dead server.
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    // A frozen server (no answer, connection still open) must not hold requests forever.
    query_timeout: 20_000,
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener the process dies.
  pool.on("error", () => {});
  // A checked-out client has no pool listener: if its server goes while it is held between two
  // queries (inside a transaction, say), its 'error' event would kill the process. The query in
  // flight or the next one fails on its own and the pool discards the client on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzle(pool, { schema, casing: "snake_case" });
  return { db, pool };
}

/** A transaction Drizzle opened (db.transaction's callback argument). */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
