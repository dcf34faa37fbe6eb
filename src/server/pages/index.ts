import type { Feature } from "../platform/feature.js";
import { loadBuiltRenderer, type PageRenderer } from "./renderer.js";
import { pageRoutes } from "./routes.js";
import { webRoutes } from "./static-files.js";

/**
 * The storefront's pages rendered on the server (and sitemap, robots), then the built files; mounted
 * last. `renderer`: tests pass one built from the sources; default the build's, when SERVE_STATIC.
 */
export const pages = (renderer?: PageRenderer | null): Feature => ({
  name: "pages",
  siteRoutes: async (site) => {
    const pageRenderer =
      renderer !== undefined ? renderer : site.config.serveStatic ? await loadBuiltRenderer(site.config) : null;
    await site.register(pageRoutes, { renderer: pageRenderer });
    await site.register(webRoutes);
  },
});
