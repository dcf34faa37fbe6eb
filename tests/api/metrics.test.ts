import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "#server/platform/backup/create.js";
import { recordBackupRun } from "#server/platform/backup/daily.js";
import { loadConfig } from "#server/platform/config.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

const TOKEN = "metrics-test-token-0123456789abcdef";
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ METRICS_TOKEN: TOKEN });
  await t.app.jobs.started();
});
afterAll(() => t?.close());

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, app = t) =>
  app.app.inject({ method: "GET", url: "/metrics", headers });

/** The value of one series in Prometheus's text format, e.g. `shop_orders{status="pending"}`. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("is not there (404) unless METRICS_TOKEN is set", async () => {
    const off = await buildTestApp();
    try {
      expect((await scrape({ authorization: `Bearer ${TOKEN}` }, off)).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("refuses a request without the token, or with another, with 401 and a code", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const answer = await scrape(authorization === undefined ? {} : { authorization });
      expect(answer.statusCode, authorization).toBe(401);
      expect(answer.json()).toEqual({
        message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>",
        code: "TOKEN_REQUIRED",
      });
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
    }
  });

  it("answers the named series with the token: requests, pool, jobs, e-mails, orders, ITNs, backup age", async () => {
    await t.app.inject({ method: "GET", url: "/api/products" });
    await t.app.inject({ method: "GET", url: "/api/products" });
    await t.app.inject({ method: "GET", url: "/api/orders/not-a-uuid" });
    await t.pool.query(
      `insert into payfast_itns (source_ip, outcome, raw_body) values ('127.0.0.1', 'rejected', 'x'), ('127.0.0.1', 'rejected', 'y')`,
    );
    await t.pool.query(
      `insert into emails (kind, event_key, to_address, subject, data, status) values ('account_changed', 'metrics', 'a@example.co.za', 's', '{}', 'failed')`,
    );
    const before = await scrape();
    expect(before.statusCode).toBe(200);
    expect(before.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(seriesValue(before.body, "shop_backup_age_seconds")).toBe(-1);
    expect(seriesValue(before.body, "shop_backup_last_success_timestamp_seconds")).toBe(0);

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-metrics-"));
    const backup = await createBackup({ databaseUrl: t.databaseUrl, dir });
    await fs.rm(dir, { recursive: true, force: true });
    await recordBackupRun(t.pool, { ...backup, trigger: "command", error: null });
    const answer = await scrape();
    const text = answer.body;
    expect(
      seriesValue(text, 'shop_http_request_duration_seconds_count{method="GET",route="/api/products",status="200"}'),
    ).toBe(2);
    expect(text).toMatch(
      /shop_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/products",status="200"\}/,
    );
    expect(
      seriesValue(text, 'shop_http_request_duration_seconds_count{method="GET",route="/api/orders/:id",status="400"}'),
    ).toBe(1);
    expect(seriesValue(text, 'shop_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(seriesValue(text, "shop_database_up")).toBe(1);
    expect(seriesValue(text, 'shop_job_queue_depth{queue="send-emails"}')).toBeGreaterThanOrEqual(0);
    expect(seriesValue(text, 'shop_job_failed{queue="expire-orders"}')).toBe(0);
    expect(seriesValue(text, 'shop_emails{status="failed"}')).toBe(1);
    expect(seriesValue(text, 'shop_payfast_itns_total{outcome="rejected"}')).toBe(2);
    expect(seriesValue(text, "shop_orders_placed_total")).toBeGreaterThanOrEqual(0);
    expect(seriesValue(text, "shop_orders_paid_total")).toBeGreaterThanOrEqual(0);
    // Counts that only grow are typed as counters.
    for (const name of ["shop_payfast_itns_total", "shop_orders_placed_total", "shop_orders_paid_total"]) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
    const { version } = JSON.parse(await fs.readFile(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(text).toMatch(
      new RegExp(`^shop_build_info\\{version="${version.replaceAll(".", "\\.")}",revision="[^"]+"\\} 1$`, "m"),
    );
    expect(seriesValue(text, "shop_alerts_open")).toBe(0);
    const age = seriesValue(text, "shop_backup_age_seconds") ?? -1;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60);
    expect(seriesValue(text, "shop_backup_last_size_bytes")).toBe(backup.bytes);
    expect(seriesValue(text, "shop_backup_last_failed")).toBe(0);
    expect(seriesValue(text, "shop_backup_last_success_timestamp_seconds")).toBe(
      Math.floor(backup.finishedAt.getTime() / 1000),
    );
    expect(text).toContain("process_resident_memory_bytes");
  });

  it("counts each queue's waiting runs and failed runs from pg-boss", async () => {
    const before = (await scrape()).body;
    const depth = seriesValue(before, 'shop_job_queue_depth{queue="expire-orders"}') ?? -1;
    const failed = seriesValue(before, 'shop_job_failed{queue="expire-orders"}') ?? -1;
    expect(depth).toBeGreaterThanOrEqual(0);
    expect(failed).toBeGreaterThanOrEqual(0);
    // Two failed runs, and one run waiting until tomorrow (so the engine leaves it waiting).
    await t.pool.query(
      `insert into pgboss.job (name, state, completed_on, output) values
         ('expire-orders', 'failed', now(), '{"message":"boom"}'), ('expire-orders', 'failed', now(), '{"message":"boom"}')`,
    );
    await t.pool.query(
      "insert into pgboss.job (name, state, start_after) values ('expire-orders', 'created', now() + interval '1 day')",
    );
    const after = (await scrape()).body;
    expect(seriesValue(after, 'shop_job_failed{queue="expire-orders"}')).toBe(failed + 2);
    expect(seriesValue(after, 'shop_job_queue_depth{queue="expire-orders"}')).toBe(depth + 1);
    await t.pool.query(
      "delete from pgboss.job where name = 'expire-orders' and (state = 'failed' or start_after > now())",
    );
  });

  it("counts orders placed and paid from the dashboard's counters", async () => {
    await t.pool.query(
      `insert into order_stat_changes (day, status, orders, total_cents) values (current_date, 'pending', 3, 30000), (current_date, 'completed', 2, 20000)`,
    );
    const text = (await scrape()).body;
    expect(seriesValue(text, 'shop_orders{status="pending"}')).toBe(3);
    expect(seriesValue(text, "shop_orders_placed_total")).toBe(5);
    expect(seriesValue(text, "shop_orders_paid_total")).toBe(2);
  });

  it("refuses to start with a METRICS_TOKEN shorter than 24 characters", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 24 characters/);
    expect(loadConfig({ METRICS_TOKEN: "a".repeat(24) }).metricsToken).toBe("a".repeat(24));
  });
});
