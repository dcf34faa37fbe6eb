import { StrictMode } from "react";
// The edge build, not the Node one: React's Node renderer runs every render inside an
// AsyncLocalStorage, and on Node 20 and 22 one in use makes every asynchronous step of every
// request in the process pay a hook, about 2.5 µs a request here (a tenth of a page served from
// the page cache), for the life of the process after the first render. The edge build uses one
// only where a global AsyncLocalStorage exists (edge runtimes; not Node), and schedules its work
// with timers. It writes the same HTML (the tests of the server's pages read it).
import { renderToReadableStream } from "react-dom/server.edge";
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
export async function renderApp(path: string, pageData: PageData): Promise<string> {
  const queryClient = createQueryClient();
  fillQueryCache(queryClient, pageData);
  if (pageData.missingProduct) markProductMissing(queryClient, path);
  // Any error fails the page (a boundary React would otherwise leave for the browser to render).
  let failure: { error: unknown } | null = null;
  const stream = await renderToReadableStream(
    <StrictMode>
      <App queryClient={queryClient} ssrPath={path} />
    </StrictMode>,
    {
      // Never split a boundary out of the page for streaming: the page is written whole.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        failure ??= { error };
      },
    },
  );
  await stream.allReady;
  const html = await new Response(stream).text();
  if (failure) throw (failure as { error: unknown }).error;
  return html;
}
