import { readFileSync } from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import { type PageRenderer, provideServerPageConfig } from "#server/pages/renderer.js";
import { pageConfig } from "#server/pages/static-files.js";
import type { Config } from "#server/platform/config.js";

const root = path.resolve(import.meta.dirname, "../..");

/** The renderers made in this worker, by the shop details they were given. */
const renderers = new Map<string, PageRenderer>();

/**
 * The page renderer from the sources, as `npm run build` makes it from them: src/web/index.html as
 * the template and src/web/entry-server.tsx run by Vitest, so API tests need no build. The web
 * reads its config once, when its modules load; a worker runs several test files one after
 * another (the api project's `isolate: false`), so each set of shop details gets its own fresh
 * copy of the web's modules, and the same details share one.
 */
export async function sourcePageRenderer(config: Config): Promise<PageRenderer> {
  const key = JSON.stringify(pageConfig(config));
  const made = renderers.get(key);
  if (made) return made;
  provideServerPageConfig(config);
  vi.resetModules();
  const { renderApp } = await import("#web/entry-server.js");
  const renderer = { template: readFileSync(path.join(root, "src/web/index.html"), "utf8"), renderApp };
  renderers.set(key, renderer);
  return renderer;
}
