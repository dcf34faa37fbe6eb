import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "#domain/schemas/orders.js";
import { seedOrders } from "#server/cli/seed-orders.js";
import { createBackup } from "#server/platform/backup/create.js";
import { pruneBackups } from "#server/platform/backup/daily.js";
import { RestoreRefusedError, restoreBackup } from "#server/platform/backup/restore.js";
import { RestoreInProgressError } from "#server/platform/backup/restore-mark.js";
import { freePort, startEmbeddedPostgres } from "#server/platform/db/embedded.js";
import { ensureDatabase } from "#server/platform/db/open.js";
import { prepareDatabase } from "#server/platform/db/setup.js";
import { seedCatalog } from "#server/seed/seed.js";
import { signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { backupCommand, contentsOf, createEmptyDatabase } from "../helpers/backup.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { registerAndLogin } from "../helpers/users.js";

let backupDir: string;
beforeAll(async () => {
  backupDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-backup-test-"));
});
afterAll(() => fs.rm(backupDir, { recursive: true, force: true }));

type Contents = Awaited<ReturnType<typeof contentsOf>>;

interface History {
  customer: { username: string; password: string; id: string };
  customerOrders: string[];
  lastInvoice: number;
  lastCreditNote: number;
}

/**
 * A shop with a past: customers, orders of every status (pending, paid, shipped, cancelled,
 * refunded and partly refunded), invoices, credit notes, e-mails in the outbox and the audit
 * trail of the admin's actions, plus a few hundred generated orders.
 */
async function makeHistory(t: TestApp): Promise<History> {
  const admin = await signInAsAdmin(t);
  const shopper = await registerAndLogin(t);
  const asAdmin = { cookie: admin.cookie };
  const paid = async (quantity = 1, skip = 0) => {
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [await stockedLine(t, quantity, skip)]);
    await payOnEmulator(t, orderId, payfastData);
    return orderId;
  };
  const pending = (await placeTestOrder(t, shopper, [await stockedLine(t, 1)])).orderId;
  const completed = await paid();
  const shipped = await paid(1, 1);
  const moved = await t.app.inject({
    method: "PATCH",
    url: `/api/admin/orders/${shipped}/status`,
    headers: asAdmin,
    payload: { status: "processed", courier: "The Courier Guy", trackingNumber: "TCG123" },
  });
  expect(moved.statusCode, moved.body).toBe(200);
  const cancelled = (await placeTestOrder(t, shopper, [await stockedLine(t, 1)])).orderId;
  const cancel = await t.app.inject({
    method: "POST",
    url: `/api/admin/orders/${cancelled}/cancel`,
    headers: asAdmin,
    payload: { reason: "Customer phoned to cancel" },
  });
  expect(cancel.statusCode, cancel.body).toBe(200);
  const refunded = await paid(2);
  const partly = await paid(2, 1);
  for (const [orderId, all] of [
    [refunded, true],
    [partly, false],
  ] as const) {
    const total = (
      await t.pool.query<{ total: number }>("select total_cents as total from orders where id = $1", [orderId])
    ).rows[0]?.total as number;
    const refund = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: asAdmin,
      payload: { amountCents: all ? total : 1_000, reason: "Damaged in transit", restock: all },
    });
    expect(refund.statusCode, refund.body).toBe(200);
  }
  await t.app.mail.deliverDue();
  const client = await t.pool.connect();
  try {
    await seedOrders(client, { orders: 300, seed: 5, end: new Date("2026-10-01T10:00:00Z") });
  } finally {
    client.release();
  }
  await fillTheRest(t, shopper.user.id, completed);
  const empty = Object.entries((await contentsOf(t.databaseUrl)).tables).filter(([, table]) => table.rows === 0);
  // Every table holds rows, so "every table equal after restore" is never true of an empty one.
  expect(empty.map(([name]) => name)).toEqual([]);
  const { rows } = await t.pool.query<{ status: string; invoice: number; credit: number; audit: number }>(
    `select (select string_agg(distinct status, ',' order by status) from orders) as status,
            (select max(invoice_number) from orders) as invoice,
            (select max(credit_note_number) from refunds) as credit,
            (select count(*)::int from audit_log) as audit`,
  );
  const facts = rows[0];
  expect(facts?.status).toBe("cancelled,completed,pending,processed,refunded");
  expect(facts?.audit).toBeGreaterThan(3);
  return {
    customer: { username: shopper.user.username, password: shopper.password, id: shopper.user.id },
    customerOrders: [pending, completed, shipped, cancelled, refunded, partly].sort(),
    lastInvoice: facts?.invoice ?? 0,
    lastCreditNote: facts?.credit ?? 0,
  };
}

/**
 * A row in each table the shop's flows above leave empty (promo codes and their uuid arrays,
 * returns, consents, tokens, alerts...), some with text COPY must escape: tabs, line breaks,
 * backslashes, non-ASCII. A new table must be given one here too.
 */
async function fillTheRest(t: TestApp, userId: string, orderId: string) {
  const awkward = "a tab\there, a line break\nthere, a back\\slash, ünïcode ✓ and 'quotes'";
  const run = (text: string, values: unknown[] = []) => t.pool.query(text, values);
  const { rows: products } = await t.pool.query<{ id: string }>("select id from products order by id limit 1");
  const productId = products[0]?.id;
  const { rows: items } = await t.pool.query<{ id: string }>("select id::text from order_items where order_id = $1", [
    orderId,
  ]);
  await run(
    "insert into alerts (key, title, detail, raised_at, resolved_at) values ('backup-test', $1, $1, now(), now())",
    [awkward],
  );
  await run(
    `insert into backup_runs (started_at, finished_at, trigger, file, bytes, rows, error)
     values (now() - interval '1 hour', now() - interval '59 minutes', 'command', null, null, null, $1)`,
    [awkward],
  );
  await run("insert into order_stats (day, status, orders, total_cents) values ('2020-02-29', 'completed', 2, 114998)");
  await run("insert into payfast_problems (kind, detail, cleared_at) values ('dns', $1, now())", [awkward]);
  await run(
    "insert into payfast_emulator_tokens (token, merchant_id, subscription_type, status, item_name) values ('dc0521d3-55fe-269b-fa00-b647310d760f', '10000100', 2, 'PAUSED', $1)",
    [awkward],
  );
  await run(
    "insert into launch_checklist_ticks (item_id, done, changed_by_id, changed_by_username) values ('cgso', true, $1, $2)",
    [userId, awkward],
  );
  await run(
    "insert into delivery_boxes (code, name, length_mm, width_mm, height_mm, max_weight_grams) values ('XL', $1, 900, 600, 500, 30000)",
    [awkward.slice(0, 60)],
  );
  const { rows: shipped } = await t.pool.query<{ id: string }>(
    `insert into shipments (order_id, vendor, vendor_shipment_id, waybill_number, tracking_reference, service_level_code, label_pdf, state, locker_pin)
     values ($1, 'tcg_locker', 'SHP-1', 'WB-1', $2, 'ECO', '\\x255044462d312e34'::bytea, 'ready_for_collection', '482913') returning id`,
    [orderId, awkward.slice(0, 60)],
  );
  await run(
    "insert into shipment_events (shipment_id, vendor_event_id, vendor_status, state, message, occurred_at, source) values ($1, 'ev-1', 'in-locker', 'ready_for_collection', $2, now(), 'webhook')",
    [shipped[0]?.id, awkward],
  );
  await run("insert into product_slug_redirects (slug, product_id) values ('an-old-name', $1)", [productId]);
  await run(
    `insert into child_profiles (user_id, name, birth_month, weight_grams, weighed_on, size_up_prompted_at)
     values ($1, $2, '2025-06-01', 8700, '2026-11-30', now())`,
    [userId, awkward.slice(0, 40)],
  );
  const { rows: plans } = await t.pool.query<{ id: string }>(
    `insert into plans (user_id, status, mode, cadence_weeks, next_date, customer_email, delivery_name, delivery_phone,
       delivery_address, delivery_city, delivery_province, delivery_zip_code, delivery_instructions, payfast_token, created_from_order_id)
     values ($1, 'active', 'card', 4, '2027-01-12', 'plan@example.co.za', 'Thandi', '082 555 0101', '12 Jacaranda Street',
       'Pretoria', 'Gauteng', '0181', $2, '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', $3) returning id`,
    [userId, awkward, orderId],
  );
  await run(
    "insert into plan_lines (plan_id, product_id, size, quantity, last_unit_price_cents) values ($1, $2, 'M', 2, 23749)",
    [plans[0]?.id, productId],
  );
  await run(
    "insert into plan_charges (plan_id, delivery_date, status, amount_cents, payfast_response) values ($1, '2026-12-15', 'skipped', null, $2)",
    [plans[0]?.id, awkward],
  );
  const { rows: promos } = await t.pool.query<{ id: string }>(
    `insert into promo_codes (code, kind, percent, min_spend_cents, starts_at, ends_at, max_uses, product_ids, category_ids)
     values ('WELCOME10', 'percent', 10, 20000, now() - interval '1 day', now() + interval '30 days', 100,
             array[$1::uuid], array(select id from categories order by id limit 2)) returning id`,
    [productId],
  );
  await run(
    "insert into promo_redemptions (order_id, promo_code_id, user_id, state, discount_cents, used_at) values ($1, $2, $3, 'used', 5750, now())",
    [orderId, promos[0]?.id, userId],
  );
  await run(
    "insert into email_changes (user_id, new_email, token_hash, expires_at) values ($1, 'new@example.co.za', 'hash', now() + interval '1 hour')",
    [userId],
  );
  await run(
    "insert into marketing_consents (user_id, channel, granted, words, source, actor_id, address) values ($1, 'email', true, $2, 'profile', $1, '127.0.0.1')",
    [userId, awkward],
  );
  await run(
    "insert into password_resets (user_id, token_hash, expires_at, used_at) values ($1, 'hash', now() + interval '1 hour', now())",
    [userId],
  );
  await run("insert into recovery_codes (user_id, code_hash) values ($1, 'hash')", [userId]);
  const { rows: requests } = await t.pool.query<{ id: string }>(
    `insert into return_requests (number, order_id, reason, details, status, opened_by, deadline_kind, deadline_day, offered_refund_cents)
     values (1, $1, 'wrong_size', $2, 'requested', 'customer', 'refund_30_days', current_date + 30, 0) returning id`,
    [orderId, awkward],
  );
  await run("insert into return_request_lines (request_id, order_item_id, quantity) values ($1, $2, 1)", [
    requests[0]?.id,
    items[0]?.id,
  ]);
  await run(
    "insert into return_request_events (request_id, status, note, actor_id, actor_username) values ($1, 'requested', $2, $3, 'shopper')",
    [requests[0]?.id, awkward, userId],
  );
  await run(
    "insert into stock_alerts (product_id, size, email, user_id, confirmed_at) values ($1, 'M', 'waiting@example.co.za', $2, now())",
    [productId, userId],
  );
}

/** What a restored shop must do: equal contents, the old password, the history, the next document numbers. */
async function checkRestoredShop(before: Contents, restoredUrl: string, history: History) {
  const after = await contentsOf(restoredUrl);
  expect(Object.keys(after.tables).length).toBeGreaterThan(15);
  expect(after.tables).toEqual(before.tables);
  expect(after.sequences).toEqual(before.sequences);

  const t = await buildListeningApp({}, restoredUrl);
  try {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: history.customer.username, password: history.customer.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    const name = t.app.config.session.cookieName;
    const cookie = `${name}=${login.cookies.find((c) => c.name === name)?.value}`;
    const headers = { cookie, "x-user-id": history.customer.id };
    const orders = await t.app.inject({ method: "GET", url: `/api/users/${history.customer.id}/orders`, headers });
    expect(orders.statusCode).toBe(200);
    expect((orders.json() as Order[]).map((order) => order.id).sort()).toEqual(history.customerOrders);

    // One more order, paid and refunded: its invoice and credit note take the next numbers, no gap.
    const buyer = { user: login.json(), password: history.customer.password, cookie, headers };
    const { orderId, payfastData } = await placeTestOrder(t, buyer, [await stockedLine(t, 1)]);
    await payOnEmulator(t, orderId, payfastData);
    const admin = await signInAsAdmin(t);
    const refund = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: { cookie: admin.cookie },
      payload: { amountCents: 500, reason: "Goodwill", restock: false },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const { rows } = await t.pool.query<{ invoice: number; credit: number }>(
      `select (select invoice_number from orders where id = $1) as invoice,
              (select credit_note_number from refunds where order_id = $1) as credit`,
      [orderId],
    );
    expect(rows[0]).toEqual({ invoice: history.lastInvoice + 1, credit: history.lastCreditNote + 1 });
  } finally {
    await t.close();
  }
}

describe("backup and restore", () => {
  let sourceUrl: string;
  let history: History;
  let file: string;
  let contents: Contents;

  beforeAll(async () => {
    const source = await buildListeningApp();
    sourceUrl = source.databaseUrl;
    try {
      history = await makeHistory(source);
    } finally {
      // Its jobs stopped, the source keeps still while it is read twice.
      await source.close();
    }
    contents = await contentsOf(sourceUrl);
    file = (await createBackup({ databaseUrl: sourceUrl, dir: backupDir })).file;
  }, 180_000);

  it("restores every table, sequence, password and counter into a fresh database", async () => {
    const target = await createEmptyDatabase();
    const result = await restoreBackup({ file, databaseUrl: target });
    expect(result.rows).toBeGreaterThan(300);
    await checkRestoredShop(contents, target, history);
  }, 120_000);

  it("refuses a database that holds data unless --force, and then replaces it", async () => {
    await expect(restoreBackup({ file, databaseUrl: sourceUrl })).rejects.toThrow(RestoreRefusedError);
    await expect(restoreBackup({ file, databaseUrl: sourceUrl })).rejects.toThrow(/already holds data/);
    expect((await contentsOf(sourceUrl)).tables).toEqual(contents.tables);

    // A shop started on the new database has seeded its catalogue: --force replaces it.
    const target = await createEmptyDatabase();
    await prepareDatabase(target, { seed: seedCatalog });
    await expect(restoreBackup({ file, databaseUrl: target })).rejects.toThrow(
      /already holds data \(categories, products/,
    );
    const seeded = (await contentsOf(target)).tables;
    const keptIn = await fs.mkdtemp(path.join(os.tmpdir(), "shop-replaced-"));
    await expect(restoreBackup({ file, databaseUrl: target, force: true })).rejects.toThrow(
      /No folder to keep a backup/,
    );
    const forced = await restoreBackup({ file, databaseUrl: target, force: true, replacedBackupDir: keptIn });
    expect(forced.tables).toBe(Object.keys(contents.tables).length);
    expect((await contentsOf(target)).tables).toEqual(contents.tables);

    // What --force replaced was backed up first: restoring that file gives the seeded shop back.
    expect(forced.replacedBackup).toMatch(new RegExp(`^${keptIn}/.*\\.backup\\.gz$`));
    const again = await createEmptyDatabase();
    await restoreBackup({ file: forced.replacedBackup as string, databaseUrl: again });
    const replaced = (await contentsOf(again)).tables;
    for (const tables of [replaced, seeded]) if (tables.shop_keys) tables.shop_keys.digest = "random key";
    expect(replaced).toEqual(seeded);
  }, 120_000);

  it("refuses a damaged file and leaves the database with none of the backup's data", async () => {
    const damaged = path.join(backupDir, "damaged.backup.gz");
    const bytes = await fs.readFile(file);
    await fs.writeFile(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const target = await createEmptyDatabase();
    await expect(restoreBackup({ file: damaged, databaseUrl: target })).rejects.toThrow(
      /incomplete|damaged|unexpected end/i,
    );
    // What is left is what the migrations write themselves (the VAT rates, the shop's own signing
    // key), as in a new database: the same rows, and the same content but for that random key.
    const migratedOnly = await createEmptyDatabase();
    await prepareDatabase(migratedOnly, {});
    const left = (await contentsOf(target)).tables;
    const fresh = (await contentsOf(migratedOnly)).tables;
    for (const tables of [left, fresh]) if (tables.shop_keys) tables.shop_keys.digest = "random key";
    expect(left).toEqual(fresh);
  }, 60_000);

  it("leaves a database no shop opens on when a restore fails, until a restore completes", async () => {
    const damaged = path.join(backupDir, "damaged-again.backup.gz");
    const bytes = await fs.readFile(file);
    await fs.writeFile(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const target = await createEmptyDatabase();
    await expect(restoreBackup({ file: damaged, databaseUrl: target })).rejects.toThrow(/damaged|unexpected end/i);

    // A shop started on it now refuses, naming the file and the command, and writes nothing: no
    // seeded catalogue that would open as a new shop with its invoice numbers from 1 again.
    const refusal = prepareDatabase(target, { seed: seedCatalog });
    await expect(refusal).rejects.toThrow(RestoreInProgressError);
    await expect(prepareDatabase(target, { seed: seedCatalog })).rejects.toThrow(
      new RegExp(
        `A restore of ${damaged}.*did not finish.*npm run restore -- <file>.*node dist/server/cli/restore\\.js`,
      ),
    );
    expect((await contentsOf(target)).tables.products?.rows).toBe(0);

    // The good file restores into it (it holds no data), and the shop opens on the result.
    await restoreBackup({ file, databaseUrl: target });
    await expect(prepareDatabase(target, { seed: seedCatalog })).resolves.toEqual({ seeded: false });
    expect((await contentsOf(target)).tables).toEqual(contents.tables);
  }, 120_000);
});

describe("a backup taken while the shop writes", () => {
  it("holds the data as of one instant: a row committed while it runs is not in it", async () => {
    const databaseUrl = await createEmptyDatabase();
    await prepareDatabase(databaseUrl, { seed: seedCatalog });
    const before = await contentsOf(databaseUrl);
    const holder = new pg.Client({ connectionString: databaseUrl });
    const writer = new pg.Client({ connectionString: databaseUrl });
    await Promise.all([holder.connect(), writer.connect()]);
    try {
      // A schema change in progress (as a migration would hold it) keeps the backup waiting for its
      // table locks after its snapshot is taken; meanwhile the shop commits a write elsewhere.
      await holder.query("begin");
      await holder.query("lock table backup_runs in access exclusive mode");
      const backup = createBackup({ databaseUrl, dir: backupDir });
      backup.catch(() => {});
      const waiting = async () =>
        (
          await writer.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
             where application_name = 'shop-backup' and datname = current_database() and wait_event_type = 'Lock'`,
          )
        ).rows[0]?.n ?? 0;
      const deadline = Date.now() + 20_000;
      while ((await waiting()) === 0) {
        if (Date.now() > deadline) throw new Error("the backup never waited for its table locks");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await writer.query(
        "insert into alerts (key, title, detail, raised_at) values ('during-backup', 'Written while the backup ran', 'x', now())",
      );
      await holder.query("rollback");
      const { file } = await backup;

      const target = await createEmptyDatabase();
      await restoreBackup({ file, databaseUrl: target });
      expect((await contentsOf(target)).tables).toEqual(before.tables);
      expect((await contentsOf(databaseUrl)).tables.alerts?.rows).toBe(1);
    } finally {
      await holder.query("rollback").catch(() => {});
      await Promise.all([holder.end(), writer.end()]);
    }
  }, 120_000);
});

describe("a backup of the embedded PostgreSQL 18", () => {
  let dataDir: string;
  let stop: (() => Promise<void>) | null = null;
  let source: TestApp | null = null;
  let file: string;
  let contents: Contents;
  let made: History;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-backup-pg18-"));
    await fs.chmod(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
    stop = embedded.stop;
    await ensureDatabase(embedded.url("postgres"), "shop");
    const sourceUrl = embedded.url("shop");
    await prepareDatabase(sourceUrl, { seed: seedCatalog });
    source = await buildListeningApp({}, sourceUrl);
    made = await makeHistory(source);
    await source.close();
    source = null;
    contents = await contentsOf(sourceUrl);
    expect(Math.floor(contents.serverVersion / 10_000)).toBe(18);
    file = (await createBackup({ databaseUrl: sourceUrl, dir: backupDir })).file;
  }, 240_000);

  afterAll(async () => {
    await source?.close();
    await stop?.();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("restores into the test server (PostgreSQL 15 in CI), another major version, with the same checks", async () => {
    const target = await createEmptyDatabase();
    await restoreBackup({ file, databaseUrl: target });
    const restored = await contentsOf(target);
    if (process.env.TEST_DATABASE_URL) expect(Math.floor(restored.serverVersion / 10_000)).toBeLessThan(18);
    await checkRestoredShop(contents, target, made);
  }, 240_000);

  it("restores with npm run restore into an empty data directory: a new embedded PostgreSQL, with the same checks", async () => {
    const restoreDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-restore-pg18-"));
    await fs.chmod(restoreDir, 0o755);
    const port = await freePort();
    let restored: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
    try {
      const env = { DATA_DIR: restoreDir, EMBEDDED_PG_PORT: String(port) };
      const { stdout } = await backupCommand("restore", [file], env);
      expect(stdout).toMatch(/^Restored \d+ rows of \d+ tables/);
      // The command started the new cluster for its run alone and stopped it again.
      expect(existsSync(path.join(restoreDir, "postgres", "postmaster.pid"))).toBe(false);
      expect(existsSync(path.join(restoreDir, "shop.lock"))).toBe(false);

      // As the shop would find it on its next start: the cluster in DATA_DIR, its database "shop".
      restored = await startEmbeddedPostgres({ dataDir: restoreDir, preferredPort: port });
      const url = restored.url("shop");
      expect(Math.floor((await contentsOf(url)).serverVersion / 10_000)).toBe(18);
      await checkRestoredShop(contents, url, made);

      // Restored once, the data directory holds data: a second restore is refused and changes nothing.
      await restored.stop();
      restored = null;
      const again = await backupCommand("restore", [file], env).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(again).toMatchObject({ code: 1 });
      expect((again as { stderr: string }).stderr).toMatch(/already holds data \(.+\); nothing was changed/);
    } finally {
      await restored?.stop();
      await fs.rm(restoreDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe("retention", () => {
  it("removes backups older than BACKUP_KEEP_DAYS and stale partial files, never the newest backup", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-retention-"));
    try {
      const day = 86_400_000;
      const now = Date.now();
      const files: [string, number][] = [
        ["shop-a.backup.gz", 20],
        ["shop-b.backup.gz", 14.5],
        ["shop-c.backup.gz", 13.5],
        ["shop-d.backup.gz.partial", 2],
        ["shop-e.backup.gz.partial", 0.1],
        ["notes.txt", 40],
      ];
      for (const [name, ageDays] of files) {
        const file = path.join(dir, name);
        await fs.writeFile(file, name);
        const at = new Date(now - ageDays * day);
        await fs.utimes(file, at, at);
      }
      expect((await pruneBackups(dir, 14, new Date(now))).sort()).toEqual([
        "shop-a.backup.gz",
        "shop-b.backup.gz",
        "shop-d.backup.gz.partial",
      ]);
      expect((await fs.readdir(dir)).sort()).toEqual(["notes.txt", "shop-c.backup.gz", "shop-e.backup.gz.partial"]);
      // Only old backups left: the newest of them stays.
      expect(await pruneBackups(dir, 1, new Date(now + 30 * day))).toEqual(["shop-e.backup.gz.partial"]);
      expect((await fs.readdir(dir)).sort()).toEqual(["notes.txt", "shop-c.backup.gz"]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
