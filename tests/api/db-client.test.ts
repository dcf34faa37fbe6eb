import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "#server/platform/db/client.js";
import { createEmptyDatabase } from "../helpers/backup.js";

let pool: pg.Pool | null = null;
afterAll(async () => {
  await pool?.end();
});

describe("the database pool", () => {
  it("survives the server ending a connection that a request holds between two queries", async () => {
    const url = await createEmptyDatabase();
    const created = createDatabase(url, 2);
    pool = created.pool;
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>("select pg_backend_pid() as pid");
    const ended = new Promise((resolve) => held.once("end", resolve));

    // What a PostgreSQL restart does to every connection, done to this one only.
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    await killer.query("select pg_terminate_backend($1)", [rows[0]?.pid]);
    await killer.end();
    await ended;

    // The holder finds out on its next query, and gives the client back broken; the process lives on.
    await expect(held.query("select 1")).rejects.toThrow();
    held.release(true);
    const again = await created.db.execute("select 1 as one");
    expect(again.rows).toEqual([{ one: 1 }]);
  });
});
