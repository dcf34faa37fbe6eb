import { describe, expect, it } from "vitest";
import { paintFirstHtml } from "./paint-first";

// The head Vite writes for the storefront: the module entry, its chunks, the stylesheet.
const built = `<!doctype html>
<html lang="en-ZA">
  <head>
    <title>Snug &amp; Dry</title>
    <script type="module" crossorigin src="/assets/index-AAA.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-BBB.js">
    <link rel="modulepreload" crossorigin href="/assets/session-CCC.js">
    <link rel="stylesheet" crossorigin href="/assets/index-DDD.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

describe("paintFirstHtml: the built page starts the app after its first paint", () => {
  it("replaces the module script and its modulepreloads with the deferred boot script, given their addresses", () => {
    const html = paintFirstHtml(built, "/assets/boot-EEE.js");
    expect(html).toContain(
      '<script defer src="/assets/boot-EEE.js" data-entry="/assets/index-AAA.js" data-preload="/assets/jsx-runtime-BBB.js /assets/session-CCC.js"></script>',
    );
    expect(html).not.toContain('type="module"');
    expect(html).not.toContain("modulepreload");
  });

  it("keeps the stylesheet render-blocking and everything else as it was", () => {
    const html = paintFirstHtml(built, "/assets/boot-EEE.js");
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-DDD.css">');
    expect(html).toContain("<title>Snug &amp; Dry</title>");
    expect(html).toContain('<body><div id="root"></div></body>');
  });

  it("writes no data-preload when the entry has no chunks", () => {
    const alone = built.replace(/\s*<link rel="modulepreload"[^>]*>/g, "");
    expect(paintFirstHtml(alone, "/assets/boot-EEE.js")).toContain(
      '<script defer src="/assets/boot-EEE.js" data-entry="/assets/index-AAA.js"></script>',
    );
  });

  it("takes the page's own chunk as the entry when Vite writes a module script for a chunk it imports too", () => {
    const twoScripts = built.replace(
      '<script type="module" crossorigin src="/assets/index-AAA.js"></script>',
      '<script type="module" crossorigin src="/assets/rolldown-runtime-RRR.js"></script>\n    <script type="module" crossorigin src="/assets/index-AAA.js"></script>',
    );
    const html = paintFirstHtml(twoScripts, "/assets/boot-EEE.js", "/assets/index-AAA.js");
    expect(html).toContain(
      '<script defer src="/assets/boot-EEE.js" data-entry="/assets/index-AAA.js" data-preload="/assets/rolldown-runtime-RRR.js /assets/jsx-runtime-BBB.js /assets/session-CCC.js"></script>',
    );
    expect(html).not.toContain('type="module"');
    expect(html.match(/<script defer/g)).toHaveLength(1);
  });

  it("refuses a page without a module script rather than build a shop that never starts", () => {
    expect(() => paintFirstHtml("<html><head></head><body></body></html>", "/assets/boot.js")).toThrow(
      /no module script/,
    );
  });
});
