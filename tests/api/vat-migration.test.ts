import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { formatRand } from "#domain/money.js";
import { migrationsFolder } from "#server/platform/db/migrate.js";
import { prepareDatabase } from "#server/platform/db/setup.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { pdfText } from "../helpers/pdf.js";
import { withDatabase } from "../setup/global-db.js";

/**
 * A shop that took orders before VAT per line: its database is migrated up to the migration before
 * it, given a paid order of pads, tampons and delivery with a refund, then migrated to now.
 */
const ORDER_ID = "3f1c2b4a-5d6e-4f70-8a91-b2c3d4e5f601";
const REFUND_ID = "3f1c2b4a-5d6e-4f70-8a91-b2c3d4e5f602";
// Per line 586.83 + 782.48 + 978.26 rounds to R23.47; on the total, 15/115 of R179.98 = R23.4757, R23.48.
const PADS = 4_499;
const TAMPONS = 5_999;
const DELIVERY = 7_500;
const TOTAL = PADS + TAMPONS + DELIVERY;
const REFUNDED = 1_234;

let t: TestApp;
let databaseUrl: string;

async function migrationsBefore(tag: string): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "shop-migrations-"));
  await fs.cp(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await fs.readFile(journalFile, "utf8")) as { entries: { idx: number; tag: string }[] };
  const cut = journal.entries.find((entry) => entry.tag.endsWith(tag));
  if (!cut) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.filter((entry) => entry.idx < cut.idx);
  await fs.writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

beforeAll(async () => {
  const adminUrl = inject("pgAdminUrl");
  const name = `shop_test_${process.env.SHOP_TEST_RUN_ID ?? "x"}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  databaseUrl = withDatabase(adminUrl, name);

  const before = await migrationsBefore("_vat_per_line");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: before });
    await client.query(`
      with pads as (insert into categories (name) values ('pads') returning id),
      adult as (insert into categories (name) values ('adult') returning id)
      insert into products (name, category_id, price_cents, image, sizes, slug)
      select 'Snug & Dry Ultra Thin Pads', pads.id, ${PADS}, '/p.svg', '["Regular"]'::jsonb, 'pads' from pads
      union all select 'Snug & Dry Panty Liners', pads.id, 3499, '/p.svg', '["Normal"]'::jsonb, 'liners' from pads
      union all select 'Snug & Dry Tampons', pads.id, ${TAMPONS}, '/p.svg', '["Super"]'::jsonb, 'tampons' from pads
      union all select 'Snug & Dry Period Underwear', pads.id, 18999, '/p.svg', '["M"]'::jsonb, 'underwear' from pads
      union all select 'Snug & Dry Bladder Control Pads', adult.id, 9999, '/p.svg', '["One"]'::jsonb, 'bladder' from adult`);
    await client.query(
      `insert into orders (id, status, subtotal_cents, delivery_fee_cents, total_cents, customer_email, delivery_name,
         delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code, paid_by, paid_at,
         pf_payment_id, invoice_number, created_at)
       values ($1, 'completed', $2, $3, $4, 'naledi@example.co.za', 'Naledi Dlamini', '082 555 0102',
         '5 Protea Road', 'Durban', 'KwaZulu-Natal', '4001', 'itn', '2026-10-14T09:00:00Z', '77001', 1,
         '2026-10-14T08:55:00Z')`,
      [ORDER_ID, PADS + TAMPONS, DELIVERY, TOTAL],
    );
    await client.query(
      `insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents)
       select $1, id, case when slug = 'pads' then 0 else 1 end, name, sizes ->> 0, 1, price_cents
       from products where slug in ('pads', 'tampons')`,
      [ORDER_ID],
    );
    await client.query(
      `insert into refunds (id, order_id, amount_cents, reason, status, credit_note_number, completed_at)
       values ($1, $2, $3, 'Pack arrived torn', 'completed', 1, '2026-10-20T10:00:00Z')`,
      [REFUND_ID, ORDER_ID, REFUNDED],
    );
    await client.query("insert into document_counters (series, last) values ('invoice', 1), ('credit_note', 1)");
  } finally {
    await client.end();
    await fs.rm(before, { recursive: true, force: true });
  }
  await prepareDatabase(databaseUrl, {});
  t = await buildTestApp({ SHOP_VAT_NUMBER: "4123456789" }, {}, databaseUrl);
});
afterAll(() => t?.close());

const flat = (text: string) => text.replace(/\s+/g, " ");

describe("orders placed before VAT per line", () => {
  it("keep their lines standard-rated at 15%, as their documents said", async () => {
    const { rows } = await t.pool.query(
      "select name, vat_class, vat_rate_bp from order_items where order_id = $1 order by position",
      [ORDER_ID],
    );
    expect(rows).toEqual([
      { name: "Snug & Dry Ultra Thin Pads", vat_class: "standard", vat_rate_bp: 1500 },
      { name: "Snug & Dry Tampons", vat_class: "standard", vat_rate_bp: 1500 },
    ]);
    const { rows: order } = await t.pool.query("select delivery_vat_rate_bp, vat_rounding from orders where id = $1", [
      ORDER_ID,
    ]);
    expect(order).toEqual([{ delivery_vat_rate_bp: 1500, vat_rounding: "order" }]);
  });

  it("keep their tax invoice and credit note as issued: VAT 15/115 of the whole amount", async () => {
    const { cookie } = await signInAsAdmin(t);
    const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
    const invoice = flat(await pdfText((await get(`/api/orders/${ORDER_ID}/invoice.pdf`)).rawPayload));
    expect(invoice).toContain(`Snug & Dry Ultra Thin Pads Regular 1 ${formatRand(PADS)} 15% ${formatRand(PADS)}`);
    expect(invoice).not.toContain("zero-rated)");
    expect(invoice).not.toContain("Zero-rated 0%");
    expect(invoice).toContain(`Standard-rated 15% R156.50 R23.48 ${formatRand(TOTAL)}`);
    expect(invoice).toContain(`VAT R23.48 Total (VAT inclusive) ${formatRand(TOTAL)}`);

    const note = flat(
      await pdfText((await get(`/api/orders/${ORDER_ID}/refunds/${REFUND_ID}/credit-note.pdf`)).rawPayload),
    );
    // 15/115 of R12.34 = R1.6096.
    expect(note).toContain("Standard-rated 15% R10.73 R1.61 R12.34");
    expect(note).toContain("VAT credited R1.61");
  });

  it("migrate the catalogue's pads and pantyliners to zero-rated, and nothing else", async () => {
    const { rows } = await t.pool.query("select name, vat_class from products order by name");
    expect(rows).toEqual([
      { name: "Snug & Dry Bladder Control Pads", vat_class: "standard" },
      { name: "Snug & Dry Panty Liners", vat_class: "zero" },
      { name: "Snug & Dry Period Underwear", vat_class: "standard" },
      { name: "Snug & Dry Tampons", vat_class: "standard" },
      { name: "Snug & Dry Ultra Thin Pads", vat_class: "zero" },
    ]);
  });

  it("have the rates table: standard 15% from 1 April 2018, zero 0%, read by vat_rate(class, day)", async () => {
    const { rows } = await t.pool.query(
      `select vat_rate('standard', '2018-04-01') as from_start, vat_rate('standard', '2018-03-31') as before_start,
         vat_rate('zero', '2026-11-26') as zero, vat_rate('standard', '2026-11-26') as standard`,
    );
    expect(rows).toEqual([{ from_start: 1500, before_start: null, zero: 0, standard: 1500 }]);
    // A change of rate is a row: from its day on, new orders take it; days before keep the old one.
    await t.pool.query(
      "insert into vat_rates (vat_class, effective_from, rate_bp) values ('standard', '2030-04-01', 1550)",
    );
    const { rows: changed } = await t.pool.query(
      "select vat_rate('standard', '2030-03-31') as before, vat_rate('standard', '2030-04-01') as after",
    );
    expect(changed).toEqual([{ before: 1500, after: 1550 }]);
  });
});
