import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { TlsPair } from "./tls.js";

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 at a free port; a handler that throws answers 500. */
export async function startHttpsServer(
  tls: TlsPair,
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<RunningServer> {
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    Promise.resolve()
      .then(() => handler(request, response))
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end(String(error));
      });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request's body as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Text made safe to put in HTML, attribute values included. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );
}
