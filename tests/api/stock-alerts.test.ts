import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STOCK_ALERTS_PER_ADDRESS, STOCK_ALERTS_WAITING_PER_NETWORK } from "#domain/limits.js";
import type { SubjectSource } from "#server/mail/subjects.js";
import { endLapsedStockAlerts } from "#server/stock-alerts/routes.js";
import { signStockAlertLink } from "#server/stock-alerts/tokens.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { withSubjects } from "../helpers/outbox.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: LoggedInUser;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildTestApp();
  [admin, shopper] = await Promise.all([registerAndLogin(t, { admin: true }), registerAndLogin(t, { proven: true })]);
});
afterAll(() => t?.close());

let network = 1;
/** Each anonymous request from its own address unless a test means to spend one budget. */
const nextIp = () => `10.91.${Math.floor(network / 250)}.${(network++ % 250) + 1}`;

const product = {
  category: "baby",
  price: "199.99",
  image: "/images/products/baby-nappies-value-pack.svg",
  sizes: ["Size 3", "Size 4"],
};

/** A product of this test's own: by default Size 3 sold out, Size 4 in stock. */
async function soldOutProduct(stock: Record<string, number> = { "Size 3": 0, "Size 4": 5 }) {
  const name = `Alert nappies ${randomInt(1e9)}`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/products",
    headers: admin.headers,
    payload: { ...product, name, stock },
  });
  expect(response.statusCode).toBe(201);
  return { id: (response.json() as { id: string }).id, name };
}

/** The admin's product form saved with these units per size. */
async function restock(id: string, name: string, stock: Record<string, number>) {
  const response = await t.app.inject({
    method: "PUT",
    url: `/api/admin/products/${id}`,
    headers: admin.headers,
    payload: { ...product, name, stock },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const subscribe = (payload: object, headers: Record<string, string> = {}, ip = nextIp()) =>
  t.app.inject({ method: "POST", url: "/api/stock-alerts", headers, payload, remoteAddress: ip });

const post = (path: string, token: string) =>
  t.app.inject({ method: "POST", url: `/api/stock-alerts/${path}`, payload: { token } });

async function mailsTo(email: string, kind: string) {
  const { rows } = await t.pool.query<SubjectSource & { event_key: string; data: Record<string, string> }>(
    "select event_key, kind, subject, data from emails where kind = $1 and lower(to_address) = lower($2) order by id",
    [kind, email],
  );
  return withSubjects(t, rows);
}

const tokenOf = (url: string) => new URL(url).searchParams.get("token") as string;

/** A fresh minute for one network's request budget, so a test can reach the limits behind it. */
const freshMinute = (ip: string) => t.pool.query("delete from rate_limits where key like $1", [`stock-alert:%${ip}%`]);
const freshAddressMinute = (email: string) =>
  t.pool.query("delete from rate_limits where key = $1", [`stock-alert:address:${email.toLowerCase()}`]);

describe("back-in-stock alerts", () => {
  it("subscribes a logged-in shopper in one click and mails them once when the admin restocks", async () => {
    const { id, name } = await soldOutProduct();
    const response = await subscribe({ productId: id, size: "Size 3" }, shopper.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "subscribed" });
    // Asking twice is one alert.
    expect((await subscribe({ productId: id, size: "Size 3" }, shopper.headers)).statusCode).toBe(200);

    // Another size restocked, and this one still sold out: nothing.
    await restock(id, name, { "Size 3": 0, "Size 4": 9 });
    expect(await mailsTo(shopper.user.email, "back_in_stock")).toHaveLength(0);

    await restock(id, name, { "Size 3": 4, "Size 4": 9 });
    const sent = await mailsTo(shopper.user.email, "back_in_stock");
    expect(sent).toHaveLength(1);
    // Its subject names the shop, never the product (POPIA s26: src/server/mail/subjects.ts).
    expect(sent[0]?.subject).toBe("Back in stock at Snug & Dry: the size you asked about");
    expect(sent[0]?.data).toMatchObject({ productName: name, size: "Size 3" });
    expect(sent[0]?.data.productUrl).toMatch(/\/products\/alert-nappies-\d+$/);
    expect(sent[0]?.data.unsubscribeUrl).toContain("/stock-alerts/unsubscribe?token=");

    // The subscription ended: a second restock sends nothing more.
    await restock(id, name, { "Size 3": 10, "Size 4": 9 });
    expect(await mailsTo(shopper.user.email, "back_in_stock")).toHaveLength(1);
  });

  it("sends each subscriber one e-mail, and none to an address that never confirmed", async () => {
    const { id, name } = await soldOutProduct();
    const [first, second] = await Promise.all([
      registerAndLogin(t, { proven: true }),
      registerAndLogin(t, { proven: true }),
    ]);
    for (const who of [first, second]) {
      if (!who) throw new Error("no shopper");
      expect((await subscribe({ productId: id, size: "Size 3" }, who.headers)).statusCode).toBe(200);
    }
    const unconfirmed = `waiting.${randomInt(1e9)}@example.co.za`;
    expect((await subscribe({ productId: id, size: "Size 3", email: unconfirmed })).statusCode).toBe(202);

    await restock(id, name, { "Size 3": 1, "Size 4": 5 });
    for (const who of [first, second]) expect(await mailsTo(who?.user.email ?? "", "back_in_stock")).toHaveLength(1);
    expect(await mailsTo(unconfirmed, "back_in_stock")).toHaveLength(0);
  });

  it("asks an address given without logging in to confirm by a signed link first", async () => {
    const { id, name } = await soldOutProduct();
    const email = `guest.${randomInt(1e9)}@example.co.za`;
    const response = await subscribe({ productId: id, size: "Size 3", email });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ status: "confirm", message: expect.stringContaining(email) });
    const [confirmation] = await mailsTo(email, "stock_alert_confirm");
    expect(confirmation?.data.confirmUrl).toContain("/stock-alerts/confirm?token=");
    const token = tokenOf(confirmation?.data.confirmUrl ?? "");

    // An altered link is refused and confirms nothing.
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect((await post("confirm", altered)).json()).toMatchObject({ code: "STOCK_ALERT_LINK_INVALID" });
    await restock(id, name, { "Size 3": 1, "Size 4": 5 });
    expect(await mailsTo(email, "back_in_stock")).toHaveLength(0);
    await restock(id, name, { "Size 3": 0, "Size 4": 5 });

    const confirmed = await post("confirm", token);
    expect(confirmed.statusCode).toBe(200);
    await restock(id, name, { "Size 3": 2, "Size 4": 5 });
    expect(await mailsTo(email, "back_in_stock")).toHaveLength(1);
  });

  it("refuses an expired link and a link of the other kind", async () => {
    const key = Buffer.from(
      (await t.pool.query("select key from shop_keys where name = 'stock_alert_links'")).rows[0].key,
      "hex",
    );
    const expired = signStockAlertLink(
      key,
      { purpose: "unsubscribe", email: "a@example.co.za" },
      new Date(Date.now() - 1000),
    );
    expect((await post("unsubscribe", expired)).json()).toMatchObject({ code: "STOCK_ALERT_LINK_INVALID" });
    const unsubscribeLink = signStockAlertLink(
      key,
      { purpose: "unsubscribe", email: "a@example.co.za" },
      new Date(Date.now() + 60_000),
    );
    const wrongKind = await post("confirm", unsubscribeLink);
    expect(wrongKind.statusCode).toBe(400);
    const foreign = signStockAlertLink(
      Buffer.alloc(32, 7),
      { purpose: "unsubscribe", email: "a@example.co.za" },
      new Date(Date.now() + 60_000),
    );
    expect((await post("unsubscribe", foreign)).statusCode).toBe(400);
    expect((await post("unsubscribe", "not-a-token")).statusCode).toBe(400);
  });

  it("unsubscribes without logging in: the address's open alerts end and nothing is sent", async () => {
    const first = await soldOutProduct();
    const second = await soldOutProduct();
    const customer = await registerAndLogin(t, { proven: true });
    await subscribe({ productId: first.id, size: "Size 3" }, customer.headers);
    await subscribe({ productId: second.id, size: "Size 3" }, customer.headers);
    await restock(first.id, first.name, { "Size 3": 1, "Size 4": 5 });
    const [sent] = await mailsTo(customer.user.email, "back_in_stock");
    const unsubscribed = await post("unsubscribe", tokenOf(sent?.data.unsubscribeUrl ?? ""));
    expect(unsubscribed.statusCode).toBe(200);
    expect(unsubscribed.json()).toEqual({ message: expect.stringContaining("unsubscribed") });
    await restock(second.id, second.name, { "Size 3": 1, "Size 4": 5 });
    expect(await mailsTo(customer.user.email, "back_in_stock")).toHaveLength(1);
    // Again: the same answer, nothing left to end.
    expect((await post("unsubscribe", tokenOf(sent?.data.unsubscribeUrl ?? ""))).statusCode).toBe(200);
  });

  it("refuses bad input with a 4xx and a code, and writes nothing", async () => {
    const { id } = await soldOutProduct();
    const count = async () => (await t.pool.query("select count(*)::int as n from stock_alerts")).rows[0].n;
    const before = await count();
    const cases: [object, number, string][] = [
      [{ productId: id, size: "Size 3" }, 400, "VALIDATION_FAILED"], // anonymous without an e-mail
      [{ productId: id, size: "Size 3", email: "not-an-email" }, 400, "VALIDATION_FAILED"],
      [{ productId: "not-a-uuid", size: "Size 3", email: `bad1@example.co.za` }, 400, "VALIDATION_FAILED"],
      [{ productId: id, size: "Size 9", email: `bad2@example.co.za` }, 400, "VALIDATION_FAILED"],
      [{ productId: id, size: "", email: `bad3@example.co.za` }, 400, "VALIDATION_FAILED"],
      [{ productId: id, size: "s".repeat(41), email: `bad4@example.co.za` }, 400, "VALIDATION_FAILED"],
      [
        { productId: "00000000-0000-4000-8000-000000000000", size: "Size 3", email: `bad5@example.co.za` },
        404,
        "NOT_FOUND",
      ],
      [{ productId: id, size: "Size 4", email: `bad6@example.co.za` }, 409, "STOCK_ALERT_SIZE_IN_STOCK"],
    ];
    for (const [payload, status, code] of cases) {
      const response = await subscribe(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json()).toEqual({ message: expect.any(String), code });
    }
    expect(await count()).toBe(before);
  });

  it("rate-limits anonymous requests per network and caps open alerts per address", async () => {
    const { id } = await soldOutProduct();
    const ip = nextIp();
    const answers = [];
    for (let index = 0; index < 6; index++) {
      answers.push(
        (await subscribe({ productId: id, size: "Size 3", email: `r${index}.${randomInt(1e9)}@example.co.za` }, {}, ip))
          .statusCode,
      );
    }
    expect(answers.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(answers[5]).toBe(429);

    const email = `cap.${randomInt(1e9)}@example.co.za`;
    const products = [];
    for (let index = 0; index <= STOCK_ALERTS_PER_ADDRESS; index++) products.push(await soldOutProduct());
    const capped = await registerAndLogin(t, { email, proven: true });
    for (const [index, each] of products.entries()) {
      const response = await subscribe({ productId: each.id, size: "Size 3" }, capped.headers);
      expect(response.statusCode, `alert ${index + 1}`).toBe(index < STOCK_ALERTS_PER_ADDRESS ? 200 : 409);
      if (index === STOCK_ALERTS_PER_ADDRESS) expect(response.json()).toMatchObject({ code: "STOCK_ALERT_LIMIT" });
    }
  });

  it("mails a subscriber when units come back other than by the admin's form: a cancelled order's hold, by the sweep", async () => {
    // One pack of Size 3 left: the order below holds it.
    const { id, name } = await soldOutProduct({ "Size 3": 1, "Size 4": 5 });
    const [buyer, waiting] = await Promise.all([
      registerAndLogin(t, { proven: true }),
      registerAndLogin(t, { proven: true }),
    ]);

    // The last pack of Size 3 is held by an unpaid order: sold out, so an alert can be asked for.
    const order = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: buyer.headers,
      payload: createOrderPayload(buyer, [{ id, name, priceCents: 19_999, size: "Size 3", quantity: 1 }]),
    });
    expect(order.statusCode, order.body).toBe(200);
    expect((await subscribe({ productId: id, size: "Size 3" }, waiting.headers)).statusCode).toBe(200);
    await t.app.sendBackInStock();
    expect(await mailsTo(waiting.user.email, "back_in_stock")).toHaveLength(0);

    // The order is cancelled: its hold goes back, and the sweep (the back-in-stock job's run) mails the alert, once.
    const cancel = await t.app.inject({
      method: "POST",
      url: `/api/orders/${(order.json() as { orderId: string }).orderId}/cancel`,
      headers: buyer.headers,
    });
    expect(cancel.statusCode).toBe(200);
    await t.app.sendBackInStock();
    await t.app.sendBackInStock();
    const sent = await mailsTo(waiting.user.email, "back_in_stock");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.data).toMatchObject({ productName: name, size: "Size 3" });
  });

  it("ends the alerts of an account when it is closed", async () => {
    const { id } = await soldOutProduct();
    const customer = await registerAndLogin(t, { proven: true });
    expect((await subscribe({ productId: id, size: "Size 3" }, customer.headers)).statusCode).toBe(200);
    const closed = await t.app.inject({
      method: "POST",
      url: "/api/account/close",
      headers: customer.headers,
      payload: { password: customer.password },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const left = await t.pool.query("select 1 from stock_alerts where lower(email) = lower($1) or user_id = $2", [
      customer.user.email,
      customer.user.id,
    ]);
    expect(left.rowCount).toBe(0);
  });

  it("renders the e-mail with the product's link and the unsubscribe link", async () => {
    const { id, name } = await soldOutProduct();
    await subscribe({ productId: id, size: "Size 3" }, shopper.headers);
    await restock(id, name, { "Size 3": 3, "Size 4": 5 });
    // The send job may hold the message under its lease while this asks: ask again until it is out.
    const sent = async () =>
      (
        await t.pool.query(
          "select status, text_body from emails where kind = 'back_in_stock' and data->>'productName' = $1",
          [name],
        )
      ).rows;
    let rows = await sent();
    for (let tries = 0; rows[0]?.status !== "captured" && tries < 50; tries++) {
      await t.app.mail.deliverDue();
      rows = await sent();
      if (rows[0]?.status !== "captured") await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(rows[0]?.status).toBe("captured");
    expect(rows[0]?.text_body).toContain("is back in stock");
    expect(rows[0]?.text_body).toMatch(/See the product https?:\/\/\S+\/products\//);
    expect(rows[0]?.text_body).toContain("/stock-alerts/unsubscribe?token=");
  });
});

describe("back-in-stock alerts: proven addresses, lapsed links and strangers (issue 39)", () => {
  it("asks a signed-in account whose address is not proven to confirm by link, and leaves a guest's alert for it alone", async () => {
    const { id } = await soldOutProduct();
    const email = `guest.${randomInt(1e9)}@example.co.za`;
    expect((await subscribe({ productId: id, size: "Size 3", email })).statusCode).toBe(202);
    // Someone registers the guest's address (nobody has it yet) and asks for the same alert.
    const stranger = await registerAndLogin(t, { email });
    const response = await subscribe({ productId: id, size: "Size 3" }, stranger.headers);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ status: "confirm" });
    const { rows } = await t.pool.query("select user_id, confirmed_at from stock_alerts where lower(email) = $1", [
      email,
    ]);
    expect(rows).toEqual([{ user_id: null, confirmed_at: null }]);
    // And a new alert of theirs waits for the link too.
    await freshAddressMinute(email);
    const other = await soldOutProduct();
    expect((await subscribe({ productId: other.id, size: "Size 3" }, stranger.headers)).statusCode).toBe(202);
  });

  it(`lets an unconfirmed alert lapse after its link's hours: asking again mails a new link, the old one is dead, and the sweep ends lapsed ones`, async () => {
    const { id } = await soldOutProduct();
    const email = `lapse.${randomInt(1e9)}@example.co.za`;
    const ip = nextIp();
    expect((await subscribe({ productId: id, size: "Size 3", email }, {}, ip)).statusCode).toBe(202);
    const [first] = await mailsTo(email, "stock_alert_confirm");
    // 47 hours on, asking again changes nothing and mails nothing more: the link still works.
    await t.pool.query("update stock_alerts set created_at = now() - interval '47 hours' where lower(email) = $1", [
      email,
    ]);
    await freshAddressMinute(email);
    expect((await subscribe({ productId: id, size: "Size 3", email }, {}, ip)).statusCode).toBe(202);
    expect(await mailsTo(email, "stock_alert_confirm")).toHaveLength(1);
    // Past 48 hours unconfirmed, the alert has lapsed: asking again sends a new link.
    await t.pool.query(
      "update stock_alerts set created_at = now() - interval '48 hours 1 minute' where lower(email) = $1",
      [email],
    );
    await freshAddressMinute(email);
    expect((await subscribe({ productId: id, size: "Size 3", email }, {}, ip)).statusCode).toBe(202);
    const mails = await mailsTo(email, "stock_alert_confirm");
    expect(mails).toHaveLength(2);
    expect(mails[1]?.event_key).not.toBe(first?.event_key);
    expect((await post("confirm", tokenOf(first?.data.confirmUrl ?? ""))).json()).toMatchObject({
      code: "STOCK_ALERT_LINK_INVALID",
    });
    expect((await post("confirm", tokenOf(mails[1]?.data.confirmUrl ?? ""))).statusCode).toBe(200);

    // The sweep ends unconfirmed alerts past their hours, and only those.
    const other = `lapse.${randomInt(1e9)}@example.co.za`;
    expect((await subscribe({ productId: id, size: "Size 3", email: other })).statusCode).toBe(202);
    await t.pool.query(
      "update stock_alerts set created_at = now() - interval '49 hours' where lower(email) in ($1, $2)",
      [email, other],
    );
    expect(await endLapsedStockAlerts(t.db)).toBeGreaterThanOrEqual(1);
    const left = await t.pool.query("select lower(email) as email from stock_alerts where lower(email) in ($1, $2)", [
      email,
      other,
    ]);
    expect(left.rows).toEqual([{ email }]);
  });

  it(`keeps at most ${STOCK_ALERTS_WAITING_PER_NETWORK} alerts waiting for their link per network; a confirmed or lapsed one frees a place`, async () => {
    const { id } = await soldOutProduct();
    const ip = nextIp();
    const asked: string[] = [];
    for (let index = 0; index < STOCK_ALERTS_WAITING_PER_NETWORK; index++) {
      const email = `wait${index}.${randomInt(1e9)}@example.co.za`;
      asked.push(email);
      expect((await subscribe({ productId: id, size: "Size 3", email }, {}, ip)).statusCode).toBe(202);
    }
    await freshMinute(ip);
    const one = `wait-over.${randomInt(1e9)}@example.co.za`;
    const refused = await subscribe({ productId: id, size: "Size 3", email: one }, {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "STOCK_ALERT_WAITING_LIMIT" });
    expect((await t.pool.query("select 1 from stock_alerts where lower(email) = $1", [one])).rowCount).toBe(0);
    expect(await mailsTo(one, "stock_alert_confirm")).toHaveLength(0);
    // Another network is not held by this one's waiting alerts.
    expect((await subscribe({ productId: id, size: "Size 3", email: one })).statusCode).toBe(202);

    // One of them confirmed: a place is free.
    const [mail] = await mailsTo(asked[0] ?? "", "stock_alert_confirm");
    expect((await post("confirm", tokenOf(mail?.data.confirmUrl ?? ""))).statusCode).toBe(200);
    await freshMinute(ip);
    const next = `wait-next.${randomInt(1e9)}@example.co.za`;
    expect((await subscribe({ productId: id, size: "Size 3", email: next }, {}, ip)).statusCode).toBe(202);
    await freshMinute(ip);
    expect(
      (await subscribe({ productId: id, size: "Size 3", email: `x.${randomInt(1e9)}@example.co.za` }, {}, ip))
        .statusCode,
    ).toBe(429);
    // One lapsed: another place.
    await t.pool.query("update stock_alerts set created_at = now() - interval '49 hours' where lower(email) = $1", [
      asked[1],
    ]);
    await freshMinute(ip);
    expect(
      (await subscribe({ productId: id, size: "Size 3", email: `y.${randomInt(1e9)}@example.co.za` }, {}, ip))
        .statusCode,
    ).toBe(202);
  });

  it("lets no stranger fill an address's places: waiting alerts from other networks take none of them", async () => {
    const email = `owner.${randomInt(1e9)}@example.co.za`;
    const strangers = "10.200.7.9";
    // Strangers' alerts for the address, waiting for links only its owner receives.
    const filled = await t.pool.query(
      `insert into stock_alerts (product_id, size, email, asked_from)
       select p.id, s.size, $1, $2 from products p cross join jsonb_array_elements_text(p.sizes) as s(size) limit $3`,
      [email, strangers, STOCK_ALERTS_PER_ADDRESS],
    );
    expect(filled.rowCount).toBe(STOCK_ALERTS_PER_ADDRESS);
    const { id } = await soldOutProduct();
    // The owner, from their own network: as a guest, and signed in with the address proven.
    expect((await subscribe({ productId: id, size: "Size 3", email })).statusCode).toBe(202);
    const owner = await registerAndLogin(t, { email, proven: true });
    const other = await soldOutProduct();
    expect((await subscribe({ productId: other.id, size: "Size 3" }, owner.headers)).statusCode).toBe(200);
    // The strangers' own network counts its waiting alerts against the address.
    const third = await soldOutProduct();
    await freshAddressMinute(email);
    const theirs = await subscribe({ productId: third.id, size: "Size 3", email }, {}, strangers);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json()).toMatchObject({ code: "STOCK_ALERT_LIMIT" });
  });

  it(`refuses to confirm an alert when the address already has ${STOCK_ALERTS_PER_ADDRESS} confirmed ones`, async () => {
    const email = `full.${randomInt(1e9)}@example.co.za`;
    const { id } = await soldOutProduct();
    expect((await subscribe({ productId: id, size: "Size 3", email })).statusCode).toBe(202);
    const [mail] = await mailsTo(email, "stock_alert_confirm");
    await t.pool.query(
      `insert into stock_alerts (product_id, size, email, confirmed_at)
       select p.id, s.size, $1, now() from products p cross join jsonb_array_elements_text(p.sizes) as s(size)
       where p.id <> $3 limit $2`,
      [email, STOCK_ALERTS_PER_ADDRESS, id],
    );
    const refused = await post("confirm", tokenOf(mail?.data.confirmUrl ?? ""));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "STOCK_ALERT_LIMIT" });
  });
});
