// The baselines' server: a bare Fastify instance in a process of its own, with nothing of the shop
// loaded. It replays answers captured from the app (the body and every header the app sent, its
// security headers and request id included) from memory, so a baseline costs the machine what the
// same bytes cost and the ratio shows what the app adds (docs/decisions/033). Its own process, not
// the app's: Fastify's functions are then compiled for this instance's requests alone, never for a
// mix of two instances that depends on which one the benchmark loaded last (decision 033).
//
// Started by target-client.mjs beside target.mjs; reports {ready} over IPC.
import http from "node:http";
import Fastify from "fastify";

const appPort = Number(process.env.BENCH_APP_PORT);
const barePort = Number(process.env.BENCH_BARE_PORT);

const bare = Fastify({ logger: false });
bare.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) =>
  done(null, body),
);

/** Node writes the headers of the connection and the length itself. */
const WRITTEN_BY_NODE = new Set(["connection", "keep-alive", "date", "content-length", "transfer-encoding"]);
const captured = new Map();

/** Reads a path from the app with raw bytes (fetch would decompress them). */
function rawGet(pathname, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port: appPort, path: pathname, headers }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

bare.post("/__bench/capture", async (request) => {
  const { path: pathname, headers } = request.body;
  const response = await rawGet(pathname, headers);
  const keep = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!WRITTEN_BY_NODE.has(name)) keep[name] = value;
  }
  captured.set(pathname, { headers: keep, body: response.body });
  return { status: response.status, bytes: response.body.length, headers: response.headers };
});

bare.get("/__bench/stats", async () => {
  const cpu = process.cpuUsage();
  return { cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage().rss };
});

bare.get("/bare/*", (request, reply) => {
  const entry = captured.get(`/${request.params["*"]}`);
  if (!entry) return reply.status(404).send({ message: "not captured" });
  return reply.headers(entry.headers).send(entry.body);
});

bare.post("/bare/post", (_request, reply) => reply.type("text/plain").send("OK"));

await bare.listen({ port: barePort, host: "127.0.0.1" });

async function close() {
  await bare.close().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", close);
process.on("SIGINT", close);
process.on("disconnect", close);

process.send?.({ ready: true, pid: process.pid });
