import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

/**
 * A database out of disk, memory or connections cannot serve now, whatever was asked: 503 with
 * Retry-After and `{ message, code }`, never a 500 (issue 38). PostgreSQL raises these codes
 * itself; a trigger raises them here the same way, on the write a sign-up makes.
 */
describe("a database out of resources", () => {
  for (const [code, name] of [
    ["53100", "disk_full"],
    ["53200", "out_of_memory"],
    ["53300", "too_many_connections"],
    ["53000", "insufficient_resources"],
  ] as const) {
    it(`answers 503 with Retry-After when PostgreSQL says ${name} (${code}), and writes nothing`, async () => {
      await t.pool.query(`
        create or replace function refuse_for_test() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file: No space left on device' using errcode = '${code}'; end $$;
        create trigger refuse_for_test before insert on users for each row execute function refuse_for_test();`);
      try {
        const username = `full_${code}`;
        const answer = await t.app.inject({
          method: "POST",
          url: "/api/auth/register",
          payload: {
            username,
            email: `${username}@example.co.za`,
            password: "long enough password",
            fullName: "Disk Full",
          },
        });
        expect(answer.statusCode, answer.body).toBe(503);
        expect(answer.headers["retry-after"]).toBe("5");
        expect(answer.json()).toEqual({ message: expect.any(String), code: "SERVICE_UNAVAILABLE" });
        const { rowCount } = await t.pool.query("select 1 from users where username = $1", [username]);
        expect(rowCount).toBe(0);
      } finally {
        await t.pool.query("drop trigger refuse_for_test on users; drop function refuse_for_test()");
      }
    });
  }
});
