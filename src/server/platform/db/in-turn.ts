/**
 * Runs reads one after another and answers their results in order, as Promise.all would. For
 * reads on one connection (a transaction, a checked-out client): it answers one query at a time
 * anyway, and pg 9 will refuse a query sent while the connection is still busy with another.
 * Reads on the pool itself may go at once with Promise.all.
 */
export async function inTurn<const Reads extends readonly (() => PromiseLike<unknown>)[]>(
  ...reads: Reads
): Promise<{ -readonly [K in keyof Reads]: Awaited<ReturnType<Reads[K]>> }> {
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as { -readonly [K in keyof Reads]: Awaited<ReturnType<Reads[K]>> };
}
