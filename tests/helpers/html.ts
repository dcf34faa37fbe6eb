/** Reading the shop's own rendered pages in API tests: its tags are written one way (src/server/pages/head.ts). */

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#x27;": "'",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] as string);
}

/** The content of `<meta name|property="key">`, decoded; undefined when absent; throws when repeated. */
export function metaContent(html: string, key: string): string | undefined {
  const found = [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"/g)].filter(
    (match) => match[1] === key,
  );
  if (found.length > 1) throw new Error(`<meta ${key}> appears ${found.length} times`);
  const content = found[0]?.[2];
  return content === undefined ? undefined : decodeEntities(content);
}

export function titleOf(html: string): string | undefined {
  const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)];
  if (titles.length !== 1) throw new Error(`the page has ${titles.length} <title> elements`);
  return decodeEntities(titles[0]?.[1] ?? "");
}

export function canonicalOf(html: string): string | undefined {
  const href = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
  return href === undefined ? undefined : decodeEntities(href);
}

/** Every <script> element: its attributes and text. */
export function scriptsOf(html: string): { attributes: string; text: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({
    attributes: match[1] ?? "",
    text: match[2] ?? "",
  }));
}

/** The parsed JSON-LD objects of the page. */
export function jsonLdOf(html: string): Record<string, unknown>[] {
  return scriptsOf(html)
    .filter((script) => script.attributes.includes('type="application/ld+json"'))
    .map((script) => JSON.parse(script.text) as Record<string, unknown>);
}

/** The text of the page's body, tags dropped and entities decoded (to read what a person sees). */
export function bodyText(html: string): string {
  const body = /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="page-data">/.exec(html)?.[1] ?? "";
  return decodeEntities(body.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "));
}
