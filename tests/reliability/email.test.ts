import { afterAll, describe, expect, it } from "vitest";
import { orderNumber } from "#domain/order-status.js";
import { freePort } from "#server/platform/db/embedded.js";
import { completeItn } from "../helpers/payfast.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { type AppProcess, AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { call } from "./helpers/http.js";
import { cleanUpShopDataDir, makeTempDir } from "./helpers/postgres.js";
import { buyableProducts, orderBody, registerCustomer, sizePrice, startValidator } from "./helpers/shop.js";

/**
 * E-mail that always arrives: 40 orders are paid, so 40 confirmations wait in the outbox; the app
 * is killed with SIGKILL while it is sending them to a slow SMTP server, and started again. Every
 * confirmation arrives (one sent twice across the crash is allowed, one missing is not).
 */

const ORDERS = 40;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe("e-mail across a crash", () => {
  it("delivers every confirmation after the app is killed while sending", async () => {
    // A real SMTP server that takes 150 ms per message.
    const smtpPort = await freePort();
    const smtp = await startSmtpServer(smtpPort, { delayMs: 150 });
    const subjects = () => smtp.received.map((mail) => mail.subject ?? "");
    cleanups.push(smtp.close);
    const validator = await startValidator();
    cleanups.push(validator.close);
    const dataDir = await makeTempDir("shop-rel-mail-");
    cleanups.push(() => cleanUpShopDataDir(dataDir));
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?requireTLS=false`,
      PAYFAST_VALIDATE_URL: validator.url,
      ...AUTH_LIMITS_OFF,
      ...ORDER_LIMITS_OFF,
    };
    const port = await freePort();
    let app: AppProcess = await startApp({ env, port });
    cleanups.push(() => app.kill());

    const customer = await registerCustomer(app.url, "mail");
    const choices = await buyableProducts(app.url);
    const numbers: string[] = [];
    for (let index = 0; index < ORDERS; index++) {
      const { product, size } = choices[index % choices.length] as (typeof choices)[number];
      const unitPriceCents = Math.round(Number(sizePrice(product, size)) * 100);
      const lines = [{ productId: product.id, name: product.name, size, quantity: 1, unitPriceCents }];
      const created = await call(app.url, "POST", "/api/create-order", {
        body: orderBody(lines, customer),
        cookie: customer.cookie,
      });
      expect(created.status).toBe(200);
      const { orderId, payfastData } = created.json as { orderId: string; payfastData: Record<string, string> };
      const itn = completeItn(orderId, payfastData.amount ?? "", `9${index}${Date.now() % 100_000}`, customer.email);
      const paid = await fetch(`${app.url}/api/payfast/notify`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: itn,
      });
      expect(paid.status).toBe(200);
      numbers.push(orderNumber(orderId));
    }

    // Killed mid-send: some confirmations are out, the rest wait (some of them taken by the dead process).
    const started = Date.now();
    while (subjects().length < 5 && Date.now() - started < 30_000) await sleep(50);
    expect(subjects().length).toBeLessThan(ORDERS);
    await app.kill();
    const beforeRestart = subjects().length;
    app = await startApp({ env, port });

    // The new process sends the rest; what the dead one held is due again when its lease ends.
    const missing = () => numbers.filter((number) => !subjects().some((subject) => subject.includes(number)));
    const until = Date.now() + 120_000;
    while (missing().length > 0 && Date.now() < until) await sleep(500);
    expect(missing(), "confirmations never delivered").toEqual([]);
    const repeats = subjects().length - ORDERS;
    console.info(`mail across a crash: ${beforeRestart} sent before the kill, ${repeats} sent twice across it`);
    expect(repeats).toBeLessThanOrEqual(6);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });
});
