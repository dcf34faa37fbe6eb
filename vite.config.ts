import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { injectShopConfig, pageConfig } from "./src/server/pages/static-files.js";
import { loadConfig, loadEnvFile } from "./src/server/platform/config.js";
import { BOOT_ENTRY, paintFirst } from "./src/web/boot/paint-first.js";

/** A file of the browser app's (Vite's root). */
const web = (file: string) => path.resolve(import.meta.dirname, "src/web", file);

/**
 * Where the dev server's proxy sends /api and /payfast-emulator: the API that `npm run dev`
 * (scripts/dev.mjs) starts beside Vite, on DEV_API_PORT.
 */
const apiTarget = `http://127.0.0.1:${process.env.DEV_API_PORT || "3000"}`;

/**
 * In development Vite serves index.html itself, so it writes the page config the API writes in
 * production (shop details, the "Test mode" notice), from the same environment the API runs with.
 */
function devShopConfig(): Plugin {
  return {
    name: "shop-dev-page-config",
    apply: "serve",
    // The same .env the API reads (src/server/main.ts), so both show the same shop.
    configResolved: () => void loadEnvFile(),
    transformIndexHtml: (html) => injectShopConfig(html, pageConfig(loadConfig())),
  };
}

/**
 * Two builds (docs/decisions/012-server-rendering.md): the browser's (dist/web), then with `--ssr
 * entry-server.tsx` the server's entry (dist/ssr/entry-server.js), which renders the same App the
 * browser hydrates. The server build keeps its dependencies (React, wouter...) as imports from
 * node_modules and copies no public files.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: "src/web",
  publicDir: "public",
  plugins: [react(), tailwindcss(), devShopConfig(), paintFirst()],
  resolve: {
    alias: { "use-sync-external-store/shim/index.js": web("lib/use-sync-external-store.ts") },
  },
  build: isSsrBuild
    ? {
        outDir: "../../dist/ssr",
        emptyOutDir: true,
        copyPublicDir: false,
        target: "node20",
        sourcemap: false,
        reportCompressedSize: false,
      }
    : {
        outDir: "../../dist/web",
        emptyOutDir: true,
        target: "es2022",
        sourcemap: false,
        reportCompressedSize: false,
        modulePreload: false,
        rolldownOptions: {
          // The page, and the boot script that starts it after the first paint (decision 013).
          input: { index: web("index.html"), [BOOT_ENTRY]: web("boot/boot.ts") },
          output: {
            // Everything the entry imports statically in the entry's own file: one request, one
            // gzip stream, instead of the entry and seven small shared chunks.
            codeSplitting: {
              groups: [{ name: "index", tags: ["$initial"], test: (id) => !id.startsWith(web("boot/")) }],
            },
          },
        },
      },
  server: {
    // PUBLIC_URL names this port (PayFast's return, cancel and notify URLs): never another one.
    strictPort: true,
    proxy: {
      "/api": apiTarget,
      "/payfast-emulator": apiTarget,
    },
  },
}));
