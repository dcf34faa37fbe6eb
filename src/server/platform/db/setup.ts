import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { refuseUnfinishedRestore } from "../backup/restore-mark.js";
import type { Database } from "./client.js";
import { migrationsFolder } from "./migrate.js";
import * as schema from "./schema.js";

/** Fills an empty database (the starter catalogue, src/server/seed): says whether it wrote anything. */
export type Seeder = (db: Database) => Promise<{ seeded: boolean }>;

/**
 * Brings a database up to date: migrations under an advisory lock (several instances may
 * start at once), then the seeder given (the caller's: platform knows no catalogue). A database whose restore did not
 * finish is refused before anything is written to it (backup/restore-mark.ts), except by the
 * restore itself (`restoring`).
 */
export async function prepareDatabase(
  url: string,
  options: { seed?: Seeder | undefined; restoring?: boolean },
): Promise<{ seeded: boolean }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (!options.restoring) await refuseUnfinishedRestore(client);
    const db = drizzle(client, { schema, casing: "snake_case" });
    await db.execute(sql`select pg_advisory_lock(hashtext('shop:migrate'))`);
    try {
      await migrate(db, { migrationsFolder: migrationsFolder() });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(hashtext('shop:migrate'))`);
    }
    return options.seed ? await options.seed(db) : { seeded: false };
  } finally {
    await client.end();
  }
}
