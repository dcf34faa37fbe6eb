import { readFile } from "node:fs/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.jobs.started();
});
afterAll(() => t?.close());

const get = (app: TestApp, url: string) => app.app.inject({ method: "GET", url });

describe("health", () => {
  it("answers live, ready with each check, and the old /api/health", async () => {
    const live = await get(t, "/api/health/live");
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: "ok" });
    const ready = await get(t, "/api/health/ready");
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });
    const old = await get(t, "/api/health");
    expect(old.statusCode).toBe(200);
    // Which release answers: package.json's version, and the build's commit ("unknown" from the sources).
    const { version } = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
    expect(old.json()).toEqual({ status: "ok", database: "up", version, revision: expect.any(String) });
    expect(old.json().revision).toMatch(/^([0-9a-f]{40}|unknown)$/);
  });

  it("is not ready while the database lacks this release's last migration", async () => {
    const { rows } = await t.pool.query<{ id: number; hash: string; created_at: string }>(
      "delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning *",
    );
    try {
      const ready = await get(t, "/api/health/ready");
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        message: "The shop is not ready: migrations behind",
        code: "SERVICE_UNAVAILABLE",
        checks: { database: "ok", migrations: "behind" },
      });
      expect((await get(t, "/api/health/live")).statusCode).toBe(200);
    } finally {
      const row = rows[0];
      await t.pool.query("insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)", [
        row?.id,
        row?.hash,
        row?.created_at,
      ]);
    }
    expect((await get(t, "/api/health/ready")).statusCode).toBe(200);
  });

  it("stays ready with its jobs engine stopped (an owner's alert instead); not ready when the database is gone, but still live", async () => {
    const other = await buildTestApp();
    try {
      await other.app.jobs.started();
      await other.app.jobs.stop();
      const stopped = await get(other, "/api/health/ready");
      expect(stopped.statusCode).toBe(200);
      expect(stopped.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });

      const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
      await admin.connect();
      try {
        await admin.query(`drop database "${new URL(other.databaseUrl).pathname.slice(1)}" with (force)`);
      } finally {
        await admin.end();
      }
      const gone = await get(other, "/api/health/ready");
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({
        message: "The shop is not ready: database down, migrations down",
        code: "SERVICE_UNAVAILABLE",
        checks: { database: "down", migrations: "down" },
      });
      const old = await get(other, "/api/health");
      expect(old.statusCode).toBe(503);
      expect(old.json()).toMatchObject({ database: "down", code: "SERVICE_UNAVAILABLE", version: expect.any(String) });
      expect((await get(other, "/api/health/live")).statusCode).toBe(200);
    } finally {
      await other.close();
    }
    // Stopping waits (up to 10 s) for a reconciliation run that started with the engine.
  }, 60_000);
});
