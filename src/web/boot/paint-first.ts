import type { Plugin } from "vite";

/** The name of the boot script's entry in the browser build (vite.config.ts's `input`). */
export const BOOT_ENTRY = "boot";

const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * The built index.html with the app's module script and its modulepreloads replaced by the boot
 * script (`src/web/boot/boot.ts`), which is given their addresses and loads them after the first
 * paint (docs/decisions/013-paint-first.md). `defer`: a classic deferred script neither blocks the
 * parser nor the paint, and runs once the document is parsed.
 */
export function paintFirstHtml(html: string, bootUrl: string, entryUrl?: string): string {
  // Vite writes one module script per chunk the page starts from: the entry, and (when the
  // bundler splits its runtime helpers out) a chunk the entry imports. The entry is the page's
  // own chunk when known, else the last script; the others are loaded as its chunks.
  const scripts = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1] as string);
  const entry = entryUrl && scripts.includes(entryUrl) ? entryUrl : scripts.at(-1);
  if (!entry) throw new Error("paint-first: the built index.html has no module script to defer");
  const chunks = [
    ...scripts.filter((script) => script !== entry),
    ...[...html.matchAll(MODULE_PRELOAD)].map((match) => match[1] as string),
  ];
  const preload = chunks.length > 0 ? ` data-preload="${attribute(chunks.join(" "))}"` : "";
  const boot = `<script defer src="${attribute(bootUrl)}" data-entry="${attribute(entry)}"${preload}></script>\n`;
  let placed = false;
  return html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, () => {
    if (placed) return "";
    placed = true;
    return boot;
  });
}

/** The browser build's index.html starts the app through the boot script (build only: `npm run dev` is unchanged). */
export function paintFirst(): Plugin {
  return {
    name: "shop-paint-first",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        const boot = Object.values(context.bundle ?? {}).find(
          (output) => output.type === "chunk" && output.isEntry && output.name === BOOT_ENTRY,
        );
        if (!boot) throw new Error(`paint-first: the build has no "${BOOT_ENTRY}" entry`);
        return paintFirstHtml(html, `/${boot.fileName}`, context.chunk ? `/${context.chunk.fileName}` : undefined);
      },
    },
  };
}
