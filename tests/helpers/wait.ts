/**
 * Reads again every 100 ms until `done` says yes or `timeoutMs` has passed, and answers the last
 * read: for what the shop does a moment later (a job, a NOTIFY), never a fixed sleep.
 */
export async function waitFor<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
