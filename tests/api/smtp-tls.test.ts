import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import { smtpTransport } from "#server/platform/mail-transport.js";
import { selfSignedCertificate } from "../e2e/support/tls.js";

/**
 * What goes over the wire to SMTP_URL's server: TLS or nothing (smtps, or STARTTLS required), unless
 * the URL opts out, which src/server/platform/config.ts allows only for a server on this machine.
 */
interface Received {
  mail: ParsedMail;
  /** Whether the message travelled over TLS. */
  secure: boolean;
}

async function startServer(options: { startTls: boolean }) {
  const received: Received[] = [];
  const tls = selfSignedCertificate(["localhost", "127.0.0.1"]);
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    ...(options.startTls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ["STARTTLS"] }),
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ mail, secure: session.secure });
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, received, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const message = (subject: string) => ({
  to: "thandi@example.co.za",
  subject,
  html: "<p>Your order is paid.</p>",
  text: "Your order is paid.",
  messageId: `<${subject.replaceAll(" ", "-")}@snuganddry.co.za>`,
});

async function send(url: string, subject: string) {
  const transport = smtpTransport(url, '"Snug & Dry" <orders@snuganddry.co.za>');
  try {
    await transport(message(subject));
  } finally {
    transport.close();
  }
}

describe("SMTP over TLS", () => {
  let plain: Awaited<ReturnType<typeof startServer>>;
  let withTls: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    [plain, withTls] = await Promise.all([startServer({ startTls: false }), startServer({ startTls: true })]);
  });
  afterAll(async () => {
    await plain.close();
    await withTls.close();
  });

  it("sends nothing to a server that offers no STARTTLS", async () => {
    await expect(send(`smtp://127.0.0.1:${plain.port}`, "no tls offered")).rejects.toThrow();
    expect(plain.received).toEqual([]);
  });

  it("upgrades with STARTTLS before sending", async () => {
    // The test server's certificate is self-signed: trusting it is an opt-out of its own, for this machine only.
    await send(`smtp://127.0.0.1:${withTls.port}?tls.rejectUnauthorized=false`, "over starttls");
    expect(withTls.received.map(({ mail, secure }) => [mail.subject, secure])).toEqual([["over starttls", true]]);
  });

  it("refuses a server whose certificate it cannot verify", async () => {
    await expect(send(`smtp://127.0.0.1:${withTls.port}`, "unverified")).rejects.toThrow(/certificate/i);
    expect(withTls.received.map(({ mail }) => mail.subject)).not.toContain("unverified");
  });

  it("sends in clear only when the URL opts out (allowed for a loopback host alone)", async () => {
    await send(`smtp://127.0.0.1:${plain.port}?requireTLS=false`, "clear on loopback");
    expect(plain.received.map(({ mail, secure }) => [mail.subject, secure])).toEqual([["clear on loopback", false]]);
  });

  it("sends in clear with the other documented opt-out, ?ignoreTLS=true, to a server offering no STARTTLS", async () => {
    // nodemailer ignores ignoreTLS while requireTLS is set: the shop must not set it then.
    await send(`smtp://127.0.0.1:${plain.port}?ignoreTLS=true`, "ignore tls on loopback");
    expect(plain.received.map(({ mail, secure }) => [mail.subject, secure])).toContainEqual([
      "ignore tls on loopback",
      false,
    ]);
  });
});
