import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "../platform/config.js";
import { pageConfig, webRoot } from "./static-files.js";

/** The data a page was rendered with: each query's key and answer (src/web/lib/page-data.ts). */
export interface PageData {
  queries: { key: readonly unknown[]; data: unknown }[];
  /** The one 404 page of unknown product addresses: the address's product is not in the catalogue. */
  missingProduct?: boolean;
}

/**
 * What renders the storefront's pages: the built index.html (the template the rendered app goes
 * into) and the server entry, src/web/entry-server.tsx (docs/decisions/012-server-rendering.md).
 */
export interface PageRenderer {
  template: string;
  renderApp: (path: string, pageData: PageData) => Promise<string>;
}

/** The global the web's public config reads on the server (SERVER_CONFIG_GLOBAL in src/web/lib/public-config.ts). */
const SERVER_CONFIG_GLOBAL = "__shopPageConfig";

/**
 * Gives the rendered pages the shop's details (name, test mode...): set before the server entry is
 * first imported, since the web reads its config once, when its module loads.
 */
export function provideServerPageConfig(config: Config) {
  (globalThis as Record<string, unknown>)[SERVER_CONFIG_GLOBAL] = pageConfig(config);
}

/** The renderer `npm run build` made (dist/web/index.html and dist/ssr/entry-server.js), or null without a build. */
export async function loadBuiltRenderer(config: Config): Promise<PageRenderer | null> {
  const root = webRoot();
  const template = path.join(root, "index.html");
  const entry = path.resolve(root, "../ssr/entry-server.js");
  if (!existsSync(template) || !existsSync(entry)) return null;
  provideServerPageConfig(config);
  const server = (await import(pathToFileURL(entry).href)) as Pick<PageRenderer, "renderApp">;
  return { template: readFileSync(template, "utf8"), renderApp: server.renderApp };
}
