import nodemailer from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport/index.js";

/** What the sender hands over: one message, its parts rendered. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Stable per message: a repeated send (after a crash) carries the same Message-ID. */
  messageId: string;
}

/** Delivers one message, or throws with the SMTP server's reason. */
export type MailTransport = (message: OutgoingMessage) => Promise<void>;

/**
 * nodemailer over SMTP_URL (smtp://user:pass@host:587, or smtps:// for TLS from the start). TLS is
 * required: on smtp:// the server must take STARTTLS or nothing is sent (the attempt fails and is
 * retried). Only the URL can lift that (?requireTLS=false, nodemailer's URL options win over ours;
 * or ?ignoreTLS=true, which nodemailer ignores while requireTLS is set, so it is not set then),
 * and src/server/platform/config.ts allows it for a server on this machine alone. The timeouts keep a slow
 * or silent server from holding the sender: the attempt fails and is retried.
 *
 * The transport is made here because nodemailer's createTransport({ url, ... }) keeps the URL's
 * options alone and drops every other one (the timeouts, requireTLS); SMTPTransport merges them.
 * One connection per message, as the shop has always sent (the pool: true it once asked for was
 * dropped that way too, so the tests and benchmarks measured this).
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport & { close: () => void } {
  const ignoreTls = new URL(smtpUrl).searchParams.get("ignoreTLS") === "true";
  const transporter = nodemailer.createTransport(
    new SMTPTransport({
      url: smtpUrl,
      requireTLS: !ignoreTls,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    }),
  );
  const send: MailTransport = async (message) => {
    await transporter.sendMail({
      from,
      to: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      messageId: message.messageId,
    });
  };
  return Object.assign(send, { close: () => transporter.close() });
}
