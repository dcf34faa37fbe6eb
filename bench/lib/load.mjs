// autocannon, run from this process, with a warm-up and a summary every benchmark reads the same way.
import autocannon from "autocannon";
import { log } from "./harness.mjs";

/** What a browser on a phone sends with every request. */
export const BROWSER_HEADERS = {
  "accept-encoding": "gzip, deflate, br",
  "user-agent": "Mozilla/5.0 (Linux; Android 14) shop-bench",
};

/** How much of a refused answer's body is kept to show (its `{ message, code }`). */
const SAMPLE_CHARS = 300;

/**
 * autocannon appends every chunk of every answer to a string (`body += chunk`), decoding it as
 * UTF-8, for `verifyBody` and `onResponse`, which these benchmarks never use. For a compressed
 * answer that decoding is the slow path: a 67 KB brotli catalogue cost the load generator about
 * 1.3 ms per answer and capped both the app and the bare route at ~780 req/s with a p99 over
 * 150 ms, measuring autocannon rather than the server. Dropping the bodies of successes keeps what
 * the runs read (status codes, bytes, latencies) and lets the same run reach ~12,000 req/s.
 *
 * The first body of each status code that is not a success is kept (its first SAMPLE_CHARS
 * characters) in `samples`, so a run's refusals say what they were (a 409's code and message), not
 * only how many.
 */
function keepRefusals(samples) {
  return (client) => {
    const queue = client.pipelinedRequests;
    const setHeaders = queue.setHeaders.bind(queue);
    let status = 0;
    let chunks = [];
    queue.setHeaders = (headers) => {
      status = headers.statusCode;
      chunks = [];
      setHeaders(headers);
    };
    queue.addBody = (chunk) => {
      if ((status < 200 || status >= 300) && !samples.has(status)) chunks.push(Buffer.from(chunk));
    };
    client.on("response", (code) => {
      if (code >= 200 && code < 300) return;
      if (!samples.has(code) && chunks.length) {
        samples.set(code, Buffer.concat(chunks).toString("utf8").slice(0, SAMPLE_CHARS));
      }
      chunks = [];
    });
  };
}

/**
 * One autocannon run; also when its first request went out and its last answer came back, and the
 * first body of each refused status code (`refusals`: { "409": "{\"message\":...}" }).
 */
function once(options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lastResponse = started;
    const samples = new Map();
    const instance = autocannon({ setupClient: keepRefusals(samples), ...options }, (error, result) =>
      error
        ? reject(error)
        : resolve({
            ...result,
            wallSeconds: (lastResponse - started) / 1000,
            refusals: Object.fromEntries(samples),
          }),
    );
    instance.on("response", () => {
      lastResponse = performance.now();
    });
    // Without a listener autocannon prints nothing; keep it that way (the table is the output).
    instance.on("error", () => {});
  });
}

/**
 * One load run: `warmupSeconds` of the same traffic (not counted), then `durationSeconds`
 * (or `amount` requests) measured; `beforeMeasure` runs between the two. Returns requests/s, latency percentiles (ms) and every kind of
 * failure autocannon counts.
 */
export async function load({ label, warmupSeconds = 1, durationSeconds = 5, beforeMeasure, ...options }) {
  const base = { timeout: 10, ...options };
  if (warmupSeconds > 0 && options.amount === undefined) {
    await once({ ...base, duration: warmupSeconds });
  }
  if (beforeMeasure) await beforeMeasure();
  const run = options.amount === undefined ? { ...base, duration: durationSeconds } : base;
  const result = await once(run);
  // autocannon ends a run of `amount` requests on its next whole-second tick: time it to the last answer.
  const seconds = options.amount === undefined ? result.duration : result.wallSeconds;
  const summary = {
    label,
    rps: result.requests.total / Math.max(seconds, 0.001),
    total: result.requests.total,
    seconds,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: result.statusCodeStats,
    refusals: result.refusals,
    bytesPerRequest: result.requests.total ? result.throughput.total / result.requests.total : 0,
  };
  if (label) {
    log(
      `${label}: ${Math.round(summary.rps)} req/s, p50 ${summary.p50} ms, p99 ${summary.p99} ms` +
        `${summary.errors || summary.timeouts || summary.non2xx ? `, errors ${summary.errors}, timeouts ${summary.timeouts}, non-2xx ${summary.non2xx}` : ""}`,
    );
    for (const [code, body] of Object.entries(summary.refusals)) log(`  first HTTP ${code} answer: ${body}`);
  }
  return summary;
}

/** Failures of a run as one line ("" when there were none). `allowed` lists status codes that are fine. */
export function failuresOf(summary, allowed = []) {
  const bad = Object.entries(summary.statusCodes ?? {})
    .filter(([code]) => !(Number(code) >= 200 && Number(code) < 300) && !allowed.includes(Number(code)))
    .map(([code, { count }]) => `${count}x HTTP ${code}${refusalCode(summary.refusals?.[code])}`);
  if (summary.errors) bad.push(`${summary.errors} errors`);
  if (summary.timeouts) bad.push(`${summary.timeouts} timeouts`);
  return bad.join(", ");
}

/** A refused answer's error code, " (CART_CHANGED)", when its body is the API's `{ message, code }`. */
function refusalCode(body) {
  const code = body?.match(/"code":"([A-Z_]+)"/)?.[1];
  return code ? ` (${code})` : "";
}

/** Alternations of app and bare route per comparison, and the seconds measured of each run. */
const ROUNDS = 5;
const RUN_SECONDS = 3;

/**
 * The app's route against the bare route sending the same bytes, headers and body (bench/lib/bare.mjs, a
 * process of its own), alternated five times in short runs: the machine is shared, and its speed
 * swings by half within minutes here. Each app run is paired with the bare run just before it (the
 * same moment of the machine), and the comparison is the round whose ratio is the median of the
 * five: keeping each side's best run instead let one fast moment of the machine, met by one side
 * only, decide the row (docs/decisions/033). Answers that round's runs, their req/s ratio and server
 * CPU per request (microseconds), every round's ratio, and any failures of any run.
 */
export async function appAgainstBare({ target, label, appPath, barePath, headers, connections }) {
  const runs = { app: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ["bare", "app"]) {
      const url = side === "app" ? `${target.appUrl}${appPath}` : `${target.bareUrl}${barePath}`;
      // Each side's CPU is its own process's: the app's, or the bare routes' (bench/lib/bare.mjs).
      const stats = side === "app" ? target.stats : target.bareStats;
      let before = null;
      const run = await load({
        label: `${label} ${side}`,
        url,
        connections,
        headers,
        durationSeconds: RUN_SECONDS,
        beforeMeasure: async () => {
          before = await stats();
        },
      });
      const after = await stats();
      run.cpuPerRequest = (after.cpuMicros - before.cpuMicros) / Math.max(run.total, 1);
      runs[side].push(run);
    }
  }
  const rounds = runs.app.map((app, round) => ({ app, bare: runs.bare[round], ratio: app.rps / runs.bare[round].rps }));
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
  return {
    app: median.app,
    bare: median.bare,
    failures: [...runs.app, ...runs.bare].map((run) => failuresOf(run)).filter(Boolean),
    ratio: median.ratio,
    cpu: { app: median.app.cpuPerRequest, bare: median.bare.cpuPerRequest },
    rounds: `median of ${rounds.length} rounds (${rounds.map((round) => round.ratio.toFixed(2)).join(", ")})`,
  };
}
