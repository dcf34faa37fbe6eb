import { jsonForScript } from "./head.js";
import type { PageData } from "./renderer.js";

export const PAGE_DATA_ID = "page-data";

/** The template's own <title> and description: a rendered page brings its own. */
const TEMPLATE_TITLE = /<title>[\s\S]*?<\/title>/;
const TEMPLATE_DESCRIPTION = /<meta name="description"[^>]*>/;
const ROOT = '<div id="root"></div>';
/** The resources React hoists out of the app (preloads of the first images): they go in the head. */
const HOISTED = /^(?:<link [^>]*>)+/;

/** The template's description, as text: the storefront's default. */
export function templateDescription(template: string): string {
  const content = /<meta name="description" content="([^"]*)"/.exec(template)?.[1] ?? "";
  return content
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/**
 * The page: the template with the page's head tags, the rendered app in #root, and the data it was
 * rendered with as inert JSON (type="application/json": never run, so the CSP needs no exception).
 */
export function pageDocument(template: string, head: string, appHtml: string, pageData: PageData): string {
  if (!template.includes(ROOT)) throw new Error(`The page template has no ${ROOT}`);
  const data = `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(pageData)}</script>`;
  const hoisted = HOISTED.exec(appHtml)?.[0] ?? "";
  return template
    .replace(TEMPLATE_TITLE, "")
    .replace(TEMPLATE_DESCRIPTION, "")
    .replace("</head>", () => `${head}${hoisted}</head>`)
    .replace(ROOT, () => `<div id="root">${appHtml.slice(hoisted.length)}</div>${data}`);
}
