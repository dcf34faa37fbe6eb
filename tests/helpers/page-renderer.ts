import { readFileSync } from "node:fs";
import path from "node:path";
import { type PageRenderer, provideServerPageConfig } from "#server/pages/renderer.js";
import type { Config } from "#server/platform/config.js";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The page renderer from the sources, as `npm run build` makes it from them: src/web/index.html as
 * the template and src/web/entry-server.tsx run by Vitest, so API tests need no build. The web's
 * config is read once per test file (the first app's shop details).
 */
export async function sourcePageRenderer(config: Config): Promise<PageRenderer> {
  provideServerPageConfig(config);
  const { renderApp } = await import("#web/entry-server.js");
  return { template: readFileSync(path.join(root, "src/web/index.html"), "utf8"), renderApp };
}
