#!/usr/bin/env node
// 8. E-mail: how many messages a second the shop sends from its outbox through a local SMTP
// server (the `smtp-server` package, in this process, taking every message at once). 2,000 order
// confirmations are written to the outbox as payments would write them; the shop's own job sends
// them; the clock runs from the first write to the last message received. Printed, no bar: the
// rate depends on the SMTP server far more than on the shop.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort, importPg, log, main, onCleanup, sleep, startDatabase } from "./lib/harness.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "mail";
const MESSAGES = 2_000;
const rows = [];

/** A confirmation's data as a payment writes it (src/server/mail/messages.ts). */
function confirmation(index) {
  const orderId = `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
  return {
    orderId,
    orderNumber: orderId.slice(-8).toUpperCase(),
    customerName: "Thandi Mokoena",
    lines: [
      { name: "Snug & Dry Baby Nappies Value Pack", size: "Size 4 (7-18kg)", quantity: 2, unitPriceCents: 39_999 },
      { name: "Snug & Dry Baby Wipes", size: "One size", quantity: 1, unitPriceCents: 4_999 },
    ],
    subtotalCents: 84_997,
    deliveryFeeCents: 0,
    totalCents: 84_997,
    vatCents: 11_086,
    delivery: {
      name: "Thandi Mokoena",
      phone: "082 555 0101",
      address: "12 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
    },
    paidAt: new Date().toISOString(),
  };
}

await main(
  async () => {
    let received = 0;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then(() => {
            received += 1;
            callback();
          })
          .catch(callback);
      },
    });
    const smtpPort = await freePort();
    await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
    onCleanup(() => new Promise((resolve) => smtp.close(resolve)));

    const database = await startDatabase("mail");
    await startTarget({
      databaseUrl: database.url,
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}?requireTLS=false` },
      label: "mail",
    });
    const pg = await importPg();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    onCleanup(() => client.end());

    log(`writing ${MESSAGES} confirmations to the outbox...`);
    const started = performance.now();
    await client.query(
      `insert into emails (kind, event_key, to_address, subject, data, status, next_attempt_at)
       select 'order_confirmation', d->>'orderId', 'shopper' || n || '@example.co.za',
              'Your Snug & Dry order ' || (d->>'orderNumber') || ' is confirmed', d, 'queued', now()
       from unnest($1::jsonb[]) with ordinality as t(d, n)`,
      [Array.from({ length: MESSAGES }, (_, index) => JSON.stringify(confirmation(index)))],
    );
    const until = performance.now() + 180_000;
    while (received < MESSAGES && performance.now() < until) await sleep(100);
    const seconds = (performance.now() - started) / 1_000;
    const { rows: states } = await client.query("select status, count(*)::int as n from emails group by status");
    const summary = states.map((state) => `${state.status} ${state.n}`).join(", ");
    log(`received ${received} in ${seconds.toFixed(1)} s; outbox: ${summary}`);
    rows.push(
      row({
        bench: BENCH,
        name: `outbox to SMTP: messages/s (${MESSAGES} confirmations)`,
        measured: fmt.rps(received / seconds),
        bar: "printed",
        status: "info",
        note: `rendered with React Email and sent over nodemailer's pool of 3 connections; outbox afterwards: ${summary}`,
      }),
      row({
        bench: BENCH,
        name: "outbox to SMTP: every message delivered",
        measured: `${received} of ${MESSAGES}`,
        bar: `${MESSAGES}`,
        status: verdict(received >= MESSAGES),
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "e-mail",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
