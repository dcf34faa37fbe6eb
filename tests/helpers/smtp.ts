import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TestSmtpServer {
  /** Every message received so far, parsed. */
  received: ParsedMail[];
  close: () => Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1:`port` that parses what it receives
 * with `mailparser`, taking `delayMs` per message (a slow server). Recipients matching `refuse`
 * are turned away as many real servers do, quoting the address in the answer.
 */
export function startSmtpServer(
  port: number,
  { delayMs = 0, refuse }: { delayMs?: number; refuse?: RegExp } = {},
): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse?.test(address.address)) {
        const error = Object.assign(
          new Error(`<${address.address}>: Recipient address rejected: mailbox of ${address.address} is full`),
          { responseCode: 452 },
        );
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () =>
      resolve({ received, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}
