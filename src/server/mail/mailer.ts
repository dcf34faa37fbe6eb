import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { smtpTransport } from "../platform/mail-transport.js";
import type { ShopIdentity } from "./messages.js";
import { type DeliveryRun, deliverDueEmails } from "./sender.js";

/** The pg-boss queue that sends the outbox (platform/jobs/engine.ts). */
export const SEND_EMAILS_JOB = "send-emails";

export interface Mail {
  /** Sends (or captures) every message due now; the job calls it, tests may too. */
  deliverDue: () => Promise<DeliveryRun>;
  /** Asks the job to run soon: called after a transaction that wrote a message commits. */
  wake: () => void;
}

export function shopIdentity(config: Pick<Config, "shop" | "publicUrl">): ShopIdentity {
  const { name, email, phone, address, vatNumber } = config.shop;
  return { name, email, phone, address, publicUrl: config.publicUrl, vatRegistered: vatNumber !== null };
}

/** The outbox's sender over SMTP_URL, or capturing into the outbox when there is none. */
export function createMailer(config: Config, db: Database, log: FastifyBaseLogger) {
  const transport = config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl, config.mail.from) : null;
  if (!transport) log.info("no SMTP_URL: messages to customers are captured in the outbox (admin: Emails)");
  const context = { db, transport, shop: shopIdentity(config), log, captureDir: config.mail.captureDir };
  return {
    deliverDue: () => deliverDueEmails(context),
    close: () => transport?.close(),
  };
}
