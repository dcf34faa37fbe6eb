import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retentionCutoff } from "#domain/retention.js";
import { emails, orders, payfastItns } from "#server/platform/db/schema.js";
import { ANONYMISED_NAME, anonymiseExpiredOrders } from "#server/privacy/retention.js";
import { insertOrder, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { completeItn } from "../helpers/payfast.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A South African local time ("2024-02-29T23:59") as an instant. */
const sa = (local: string) => new Date(`${local}:00+02:00`);

const placedAt = (createdAt: Date) =>
  insertOrder(t, {
    status: "completed",
    createdAt,
    customerEmail: "sipho.nkosi@example.co.za",
    deliveryName: "Sipho Nkosi",
    deliveryPhone: "082 444 5555",
  });

async function rowsById(ids: readonly string[]) {
  const rows = await t.db
    .select()
    .from(orders)
    .where(inArray(orders.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row]));
}

const anonymised = async (ids: readonly string[]) => {
  const rows = await rowsById(ids);
  return ids.map((id) => rows.get(id)?.anonymisedAt !== null);
};

const retentionAudits = async () =>
  (
    await t.pool.query<{ actor_username: string; actor_id: string | null; after: Record<string, unknown> }>(
      "select actor_username, actor_id, after from audit_log where action = 'retention.orders_anonymised' order by id",
    )
  ).rows;

const run = (now: string, years = 5) =>
  anonymiseExpiredOrders(t.db, { years, now: sa(now), log: t.app.log, source: "test" });

describe("the retention job", () => {
  it("anonymises only orders whose tax year ended RETENTION_YEARS and the 12 months to its return ago, at the edges of February", async () => {
    // Tax years end on the last day of February: 28 Feb 2023, 29 Feb 2024 (leap), 28 Feb 2025.
    const endsFeb2023 = await placedAt(sa("2023-02-28T23:59"));
    const startsYear2024 = await placedAt(sa("2023-03-01T00:00"));
    const leapDay2024 = await placedAt(sa("2024-02-29T23:59"));
    const startsYear2025 = await placedAt(sa("2024-03-01T00:00"));
    const all = [endsFeb2023, startsYear2024, leapDay2024, startsYear2025];

    // 28 Feb 2030, one minute to midnight: the tax year that ended 28 Feb 2023 (its return due by
    // 29 Feb 2024) has had its 5 years after that, 2024's not.
    expect(await run("2030-02-28T23:59")).toEqual({
      cutoff: sa("2023-03-01T00:00"),
      anonymised: 1,
      notifications: 0,
    });
    expect(await anonymised(all)).toEqual([true, false, false, false]);

    // 1 March 2030: the tax year 2023/24, leap day included, is due; the one that began that day is not.
    expect(await run("2030-03-01T00:00")).toEqual({
      cutoff: sa("2024-03-01T00:00"),
      anonymised: 2,
      notifications: 0,
    });
    expect(await anonymised(all)).toEqual([true, true, true, false]);

    // Running again changes nothing and records nothing.
    const audits = await retentionAudits();
    expect(await run("2030-03-01T00:00")).toMatchObject({ anonymised: 0 });
    expect(await retentionAudits()).toEqual(audits);

    // A longer retention keeps more.
    expect(await run("2031-03-01T00:00", 6)).toMatchObject({ anonymised: 0 });
    expect(await run("2031-03-01T00:00")).toMatchObject({ anonymised: 1 });
    expect(await anonymised(all)).toEqual([true, true, true, true]);

    expect(audits.map((audit) => [audit.actor_username, audit.actor_id, audit.after.orders])).toEqual([
      ["test", null, 1],
      ["test", null, 2],
    ]);
    expect(audits[1]?.after).toMatchObject({
      years: 5,
      placedBefore: sa("2024-03-01T00:00").toISOString(),
      oldest: sa("2023-03-01T00:00").toISOString(),
      newest: sa("2024-02-29T23:59").toISOString(),
    });
  });

  it("replaces the delivery details and keeps the order, its lines, amounts and invoice", async () => {
    const id = await placedAt(sa("2015-05-05T12:00"));
    await t.pool.query(
      `update orders set company_name = 'Nkosi Trading', vat_number = '4123456789', delivery_suburb = 'Hatfield',
         delivery_complex = 'Unit 4 Jacaranda Court', delivery_instructions = 'Gate code 4455', delivery_alt_phone = '012 555 0102'
       where id = $1`,
      [id],
    );
    const before = (await rowsById([id])).get(id);
    await run("2026-11-26T12:00");
    const after = (await rowsById([id])).get(id);
    expect(after).toMatchObject({
      deliveryName: ANONYMISED_NAME,
      deliveryPhone: "",
      customerEmail: "",
      deliveryAddress: "",
      deliveryCity: "",
      deliveryZipCode: "",
      deliverySuburb: "",
      deliveryComplex: "",
      deliveryInstructions: "",
      deliveryAltPhone: "",
      companyName: null,
      vatNumber: null,
      // What the books need stays.
      status: before?.status,
      totalCents: before?.totalCents,
      subtotalCents: before?.subtotalCents,
      invoiceNumber: before?.invoiceNumber,
      deliveryProvince: before?.deliveryProvince,
      userId: before?.userId,
    });
    const lines = await t.pool.query("select count(*)::int as n from order_items where order_id = $1", [id]);
    expect(lines.rows).toEqual([{ n: 1 }]);
    expect(JSON.stringify(after)).not.toMatch(/Sipho|Nkosi|082 444|Jacaranda|Hatfield|Gate code|012 555/);
  });

  it("takes the buyer's details out of the order's stored documents too, and keeps their figures", async () => {
    const id = await placedAt(sa("2015-06-06T12:00"));
    const customer = {
      name: "Sipho Nkosi",
      companyName: "Nkosi Trading",
      vatNumber: "4123456789",
      email: "sipho.nkosi@example.co.za",
      phone: "082 444 5555",
      address: "1 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
      suburb: "Hatfield",
      complex: "",
      deliveryInstructions: "Gate code 4455",
      altPhone: "",
    };
    await t.pool.query(
      "insert into issued_documents (kind, number, order_id, data) values ('invoice', 990001, $1, $2)",
      [id, JSON.stringify({ customer, totalCents: 12_345 })],
    );
    await run("2026-11-26T12:00");
    const { rows } = await t.pool.query<{ data: { customer: object; totalCents: number } }>(
      "select data from issued_documents where order_id = $1",
      [id],
    );
    expect(rows[0]?.data.customer).toMatchObject({
      name: ANONYMISED_NAME,
      companyName: null,
      vatNumber: null,
      province: "Gauteng",
    });
    expect(rows[0]?.data.totalCents).toBe(12_345);
    expect(JSON.stringify(rows[0]?.data)).not.toMatch(/Sipho|Nkosi|082 444|Jacaranda|Hatfield|Gate code/);
  });

  it("takes the delivery details out of the order's e-mails too, and leaves a newer order's alone", async () => {
    const old = await placedAt(sa("2016-06-01T10:00"));
    const recent = await placedAt(sa("2026-06-01T10:00"));
    const confirmation = (orderId: string) => ({
      kind: "order_confirmation" as const,
      eventKey: orderId,
      toAddress: "sipho.nkosi@example.co.za",
      subject: `Order #${orderId.slice(-8).toUpperCase()} is paid`,
      status: "captured" as const,
      html: "<p>Hello Sipho Nkosi, 12 Jacaranda Street</p>",
      textBody: "Hello Sipho Nkosi, 12 Jacaranda Street",
      data: {
        orderId,
        orderNumber: orderId.slice(-8).toUpperCase(),
        customerName: "Sipho Nkosi",
        lines: [{ name: "Newborn nappies", size: "Newborn", quantity: 1, unitPriceCents: 19_999 }],
        subtotalCents: 19_999,
        deliveryFeeCents: 7_500,
        totalCents: 27_499,
        vatCents: 3_587,
        delivery: {
          name: "Sipho Nkosi",
          phone: "082 444 5555",
          address: "12 Jacaranda Street",
          city: "Pretoria",
          province: "Gauteng",
          zipCode: "0181",
          suburb: "Hatfield",
          complex: "",
          deliveryInstructions: "Gate code 4455",
          altPhone: "012 555 0102",
        },
        paidAt: new Date().toISOString(),
      },
    });
    const [oldMail, recentMail] = await t.db
      .insert(emails)
      .values([confirmation(old), confirmation(recent)])
      .returning({ id: emails.id });
    await run("2026-11-26T12:00");

    const rows = await t.pool.query("select * from emails where id = any($1::bigint[]) order by id", [
      [oldMail?.id, recentMail?.id],
    ]);
    const [scrubbed, kept] = rows.rows;
    expect(scrubbed).toMatchObject({ to_address: "", html: null, text_body: null, status: "captured" });
    expect(scrubbed.data).toMatchObject({
      customerName: ANONYMISED_NAME,
      delivery: { name: ANONYMISED_NAME, phone: "", address: "", city: "", province: "Gauteng" },
      totalCents: 27_499,
    });
    expect(JSON.stringify(scrubbed)).not.toMatch(/Sipho|Nkosi|082 444|Jacaranda|Hatfield|Gate code|012 555|0181/);
    expect(JSON.stringify(kept)).toContain("12 Jacaranda Street");
    expect(kept.to_address).toBe("sipho.nkosi@example.co.za");

    // The admin can still open the message: it is rendered again from what is left.
    const admin = await signInAsAdmin(t);
    const view = await t.app.inject({
      method: "GET",
      url: `/api/admin/emails/${oldMail?.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.body).toContain(ANONYMISED_NAME);
    expect(view.body).not.toContain("Jacaranda");
  });

  it("takes the payer's name, e-mail and phone out of the PayFast notifications stored with a due order, and out of old ones of no order", async () => {
    const old = await placedAt(sa("2017-04-01T09:00"));
    const recent = await placedAt(sa("2026-04-01T09:00"));
    const notification = (orderId: string | null, receivedAt: Date, rawBody: string) => ({
      orderId,
      receivedAt,
      pfPaymentId: `pf-${randomUUID()}`,
      paymentStatus: "COMPLETE",
      amountGross: "274.99",
      sourceIp: "197.97.145.144",
      outcome: "accepted" as const,
      rawBody,
    });
    const itn = (orderId: string) =>
      `${completeItn(orderId, "274.99", "1234567", "sipho.nkosi@example.co.za")}&cell_number=0824445555`;
    const refused = `name_first=Thandi&name_last=Mokoena&email_address=sipho.nkosi%40example.co.za&m_payment_id=${randomUUID()}&amount_gross=274.99`;
    const inserted = await t.db
      .insert(payfastItns)
      .values([
        notification(old, sa("2017-04-01T09:05"), itn(old)),
        notification(recent, sa("2026-04-01T09:05"), itn(recent)),
        // Refused ones keep their first 256 characters, and name no order of the shop.
        { ...notification(null, sa("2017-05-01T10:00"), refused), outcome: "rejected" as const },
        { ...notification(null, sa("2026-05-01T10:00"), refused), outcome: "rejected" as const },
      ])
      .returning({ id: payfastItns.id });
    const bodies = async () =>
      (
        await t.pool.query<{ raw_body: string; amount_gross: string; pf_payment_id: string }>(
          "select raw_body, amount_gross, pf_payment_id from payfast_itns where id = any($1::bigint[]) order by id",
          [inserted.map((row) => row.id)],
        )
      ).rows;
    const before = await bodies();

    expect(await run("2026-11-26T12:00")).toMatchObject({ notifications: 2 });
    const after = await bodies();
    const [oldOrder, recentOrder, oldRefused, recentRefused] = after;
    for (const scrubbed of [oldOrder, oldRefused]) {
      expect(scrubbed?.raw_body).not.toMatch(/Thandi|Mokoena|sipho|0824445555/);
      expect(scrubbed?.raw_body).toMatch(/(^|&)name_first=(&|$)/);
    }
    expect(new URLSearchParams(oldOrder?.raw_body).get("email_address")).toBe("");
    expect(new URLSearchParams(oldOrder?.raw_body).get("cell_number")).toBe("");
    // What the books need stays.
    expect(new URLSearchParams(oldOrder?.raw_body).get("amount_gross")).toBe("274.99");
    expect(after.map((row) => [row.amount_gross, row.pf_payment_id])).toEqual(
      before.map((row) => [row.amount_gross, row.pf_payment_id]),
    );
    // Newer ones are kept as they came.
    expect(recentOrder?.raw_body).toBe(before[1]?.raw_body);
    expect(recentRefused?.raw_body).toBe(before[3]?.raw_body);
    expect((await rowsById([recent])).get(recent)?.anonymisedAt).toBeNull();

    // Running again changes nothing.
    expect(await run("2026-11-26T12:00")).toMatchObject({ anonymised: 0, notifications: 0 });
    expect(await bodies()).toEqual(after);
    const audits = await retentionAudits();
    expect(audits.map((audit) => audit.after.payfastNotifications).slice(-2)).toEqual([1, 1]);
  });

  it("runs by hand with npm run retention, on RETENTION_YEARS", async () => {
    // Today's cutoff for 7 years, whatever today is: one order a minute before it, one at it.
    const cutoff = retentionCutoff(new Date(), 7);
    const due = await placedAt(new Date(cutoff.getTime() - 60_000));
    const kept = await placedAt(cutoff);
    const answer = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn("node_modules/.bin/tsx", ["src/server/cli/retention.ts"], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: "silent", RETENTION_YEARS: "7" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(answer).toMatchObject({ code: 0 });
    expect(answer.stdout.trim()).toBe(
      `Retention (7 years after the tax year): 1 order(s) placed before ${cutoff.toISOString()} anonymised.`,
    );
    expect(await anonymised([due, kept])).toEqual([true, false]);
    const audits = await retentionAudits();
    expect(audits.at(-1)).toMatchObject({ actor_username: "npm run retention", after: { orders: 1, years: 7 } });
  }, 60_000);
});
