import pg from "pg";
import { expect, it } from "vitest";
import { EMAIL_KINDS } from "#server/platform/db/schema.js";
import { createTestDatabase } from "../helpers/app.js";

// The outbox's kinds are checked twice: by the domain's list (the code) and by the hand-written
// `emails_kind_known` check of the migrations. Every migration that adds a kind rewrites that check,
// so one written from an older list would silently refuse a kind another change added.
it("the database takes a message of every kind the shop knows, and refuses one it does not", async () => {
  const client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  try {
    for (const kind of EMAIL_KINDS) {
      await client.query(
        `insert into emails (kind, event_key, to_address, subject, data, status)
         values ($1, 'kinds-test', 'someone@example.co.za', 'A subject', '{}', 'captured')`,
        [kind],
      );
    }
    const { rows } = await client.query<{ kind: string }>("select kind from emails where event_key = 'kinds-test'");
    expect(rows.map((row) => row.kind).sort()).toEqual([...EMAIL_KINDS].sort());
    await expect(
      client.query(
        `insert into emails (kind, event_key, to_address, subject, data, status)
         values ('newsletter', 'kinds-test', 'someone@example.co.za', 'A subject', '{}', 'captured')`,
      ),
    ).rejects.toThrow(/emails_kind_known/);
  } finally {
    await client.end();
  }
});
