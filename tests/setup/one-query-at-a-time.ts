import { afterAll } from "vitest";

// pg 8 queues a query sent on a connection that is still busy with another, and warns that pg 9
// will refuse it. A test file during which that happens fails: reads on one connection (a
// transaction, a checked-out client) go in turn (src/server/platform/db/in-turn.ts), never with Promise.all.
const BUSY = "already executing a query";
const seen: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.message.includes(BUSY)) seen.push(warning.stack ?? warning.message);
};
process.on("warning", onWarning);

afterAll(async () => {
  // Node hands warnings out on a later tick: let the last ones arrive.
  await new Promise((resolve) => setImmediate(resolve));
  process.off("warning", onWarning);
  if (seen.length > 0) throw new Error(`A query was sent on a busy connection:\n${seen.join("\n")}`);
});
