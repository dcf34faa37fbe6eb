import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, freePort, startEmbeddedPostgres } from "#server/platform/db/embedded.js";
import { ensureDatabase } from "#server/platform/db/open.js";
import { prepareDatabase } from "#server/platform/db/setup.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

/** Everything the embedded server has written: pg_ctl's start file and the collector's files. */
async function serverLogs(pgData: string): Promise<{ files: string[]; text: string }> {
  const collected = existsSync(path.join(pgData, "log"))
    ? (await fs.readdir(path.join(pgData, "log"))).map((name) => path.join(pgData, "log", name))
    : [];
  const files = [path.join(pgData, "server.log"), ...collected].filter((file) => existsSync(file));
  const texts = await Promise.all(files.map((file) => fs.readFile(file, "utf8")));
  return { files, text: texts.join("\n") };
}

describe("the embedded PostgreSQL's own log", () => {
  let dataDir: string;
  let embedded: EmbeddedPostgres;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-pg-log-"));
    await fs.chmod(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
    await ensureDatabase(embedded.url("postgres"), "shop");
    await prepareDatabase(embedded.url("shop"), {});
    t = await buildTestApp({}, {}, embedded.url("shop"));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await embedded?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("holds no customer's address after a duplicate sign-up and failed statements carrying one", async () => {
    const email = "thandi.duplicate@example.co.za";
    const account = { username: "thandi_log", email, password: "a long enough password", fullName: "Thandi Log" };
    const first = await t.app.inject({ method: "POST", url: "/api/auth/register", payload: account });
    expect(first.statusCode, first.body).toBe(201);
    const again = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { ...account, username: "thandi_log_2" },
    });
    expect(again.statusCode).toBeLessThan(500);

    // The failures PostgreSQL would log with the value: a unique violation (its DETAIL names the key),
    // a cast of the address (its message quotes it), and a statement with the address in its text.
    const client = new pg.Client({ connectionString: embedded.url("shop") });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>("select id from users where email = $1", [email]);
      expect(rows).toHaveLength(1);
      await expect(
        client.query(
          "insert into users (username, email, password_hash, full_name) values ('thandi_copy', $1, 'x', 'Thandi')",
          [email],
        ),
      ).rejects.toThrow(/duplicate key/);
      await expect(client.query("select $1::uuid", [email])).rejects.toThrow(/invalid input syntax/);
      await expect(client.query(`select * from users where email = '${email}' and nope`)).rejects.toThrow();
      // A message the server does log (level LOG), so the files read below are the ones it writes to.
      await client.query("do $$ begin raise log 'embedded-log-test marker'; end $$");
    } finally {
      await client.end();
    }

    const pgData = path.join(dataDir, "postgres");
    let logs = await serverLogs(pgData);
    for (let waited = 0; !logs.text.includes("embedded-log-test marker") && waited < 5_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      logs = await serverLogs(pgData);
    }
    expect(logs.text).toContain("embedded-log-test marker");
    // The collector's files: one per weekday, truncated when the name comes round (a week kept).
    expect(logs.files.map((file) => path.relative(pgData, file))).toContainEqual(
      expect.stringMatching(/^log\/postgresql-(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\.log$/),
    );
    expect(logs.text).not.toContain(email);
    expect(logs.text).not.toContain("thandi");
    expect(logs.text).not.toMatch(/duplicate key|invalid input syntax|STATEMENT:|DETAIL:/);
  }, 60_000);
});
