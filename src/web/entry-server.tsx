import { Writable } from "node:stream";
import { StrictMode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { App } from "./app/App";
import { createQueryClient } from "./app/query-client";
import { markProductMissing } from "./features/catalog";
import { fillQueryCache, type PageData } from "./lib/page-data";

/**
 * The server's entry (built by `vite build --ssr`, docs/decisions/012-server-rendering.md): the
 * same App the browser hydrates, rendered at `path` with the page's data already in its query
 * cache. The HTML is written only once everything is ready, lazy parts included, so it is whole
 * and carries no inline script (React's streaming scripts would need a CSP exception).
 */
export function renderApp(path: string, pageData: PageData): Promise<string> {
  const queryClient = createQueryClient();
  fillQueryCache(queryClient, pageData);
  if (pageData.missingProduct) markProductMissing(queryClient, path);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks).toString("utf8"));
        done();
      },
    });
    const { pipe } = renderToPipeableStream(
      <StrictMode>
        <App queryClient={queryClient} ssrPath={path} />
      </StrictMode>,
      {
        // Never split a boundary out of the page for streaming: the page is written whole.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady: () => pipe(sink),
        onShellError: reject,
        onError: reject,
      },
    );
  });
}
