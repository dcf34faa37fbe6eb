import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { POLICY_ROUTE } from "#domain/policies.js";
import { legalEntityName } from "#domain/seller.js";
import type { Config } from "../platform/config.js";

/**
 * The storefront's routes (docs/product.md §2) the SPA's page serves; any other path gets it with
 * status 404 and noindex. /, /category/{name} and /products/{slug} are rendered on the server
 * (src/server/pages/) when the build has its server entry.
 */
const SPA_ROUTES = new Set([
  "/",
  "/checkout",
  "/thank-you",
  "/success",
  "/cancel",
  "/admin",
  "/profile",
  "/terms-and-conditions",
  "/legal",
  "/stock-alerts/confirm",
  "/stock-alerts/unsubscribe",
]);

/** Pages with an id in their path (an order's page in the admin, a parcel's tracking), and the policies with their versions. */
const SPA_ROUTE_PATTERNS = [
  /^\/admin\/orders\/[0-9a-fA-F-]{36}$/,
  /^\/orders\/[0-9a-fA-F-]{36}\/tracking$/,
  POLICY_ROUTE,
];
const isSpaRoute = (pathname: string) =>
  SPA_ROUTES.has(pathname) || SPA_ROUTE_PATTERNS.some((pattern) => pattern.test(pathname));

const SHOP_CONFIG_PLACEHOLDER = "<!--shop-config-->";

/**
 * What the browser is told at load (src/web/lib/public-config.ts): the shop's details, whether
 * payments are test payments (every page then says so), and the ad-conversion id when set.
 */
export type PageConfig = Omit<Config["shop"], "vatNumber"> & {
  testPayments?: boolean;
  adConversionId?: string;
  /** The seller's legal name and status, its registration number, and whether they are the demo business's (the footer). */
  seller: string;
  registrationNumber?: string;
  sellerDemo?: boolean;
  /** SHOP_VAT_NUMBER is set: the pages say prices include VAT (src/domain/vat-wording.ts); the number itself is on /legal and invoices. */
  vatRegistered?: boolean;
};

export function pageConfig(config: Pick<Config, "shop" | "payfast" | "adConversionId" | "seller">): PageConfig {
  const { vatNumber: _printedOnInvoicesOnly, ...shop } = config.shop;
  const { seller } = config;
  return {
    ...shop,
    testPayments: config.payfast.testPayments,
    ...(config.adConversionId ? { adConversionId: config.adConversionId } : {}),
    seller: legalEntityName(seller.legalName, seller.legalStatus),
    ...(seller.registrationNumber ? { registrationNumber: seller.registrationNumber } : {}),
    ...(seller.demo ? { sellerDemo: true } : {}),
    ...(config.shop.vatNumber !== null ? { vatRegistered: true } : {}),
  };
}

/**
 * Puts the page config into the page as inert JSON the browser reads (src/web/lib/public-config.ts).
 * `<` is escaped so the text can never close the tag.
 */
export function injectShopConfig(html: string, data: PageConfig): string {
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  const tag = `<script type="application/json" id="shop-config">${json}</script>`;
  if (html.includes(SHOP_CONFIG_PLACEHOLDER)) return html.replace(SHOP_CONFIG_PLACEHOLDER, () => tag);
  return html.replace("</head>", () => `${tag}</head>`);
}

/** Where the built storefront lives (dist/web), whether the server runs from src/ or dist/. */
export function webRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, "../../web"), path.resolve(here, "../../../dist/web")];
  return candidates.find((dir) => existsSync(path.join(dir, "index.html"))) ?? (candidates[1] as string);
}

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated.
 * Unknown /api paths are JSON 404s; other unknown paths render the SPA's 404 page.
 */
export const webRoutes: FastifyPluginAsync = fp(async (app) => {
  const root = webRoot();
  const indexFile = path.join(root, "index.html");
  const hasBuild = app.config.serveStatic && existsSync(indexFile);
  let indexHtml: string | null = null;
  let notFoundHtml: string | null = null;

  if (hasBuild) {
    indexHtml = injectShopConfig(readFileSync(indexFile, "utf8"), pageConfig(app.config));
    notFoundHtml = indexHtml.replace("</head>", () => '<meta name="robots" content="noindex" /></head>');
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      // scripts/precompress.mjs writes .br/.gz at build time: no compression per request.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600");
      },
    });
  }

  const sendSpa = (pathname: string, reply: FastifyReply) => {
    const known = isSpaRoute(pathname);
    return reply
      .status(known ? 200 : 404)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(known ? indexHtml : notFoundHtml);
  };

  // Without a server renderer (src/server/pages/), the storefront is the SPA's page.
  if (hasBuild && !app.hasRoute({ method: "GET", url: "/" })) app.get("/", (_request, reply) => sendSpa("/", reply));

  // Unknown /api paths answer at once, without the static files' lookups on disk.
  app.all("/api/*", (request, reply) =>
    reply.status(404).send({ message: `Not found: ${request.method} ${request.url.split("?")[0]}`, code: "NOT_FOUND" }),
  );

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (pathname === "/api" || pathname.startsWith("/api/") || request.method !== "GET" || !indexHtml) {
      return reply.status(404).send({ message: `Not found: ${request.method} ${pathname}`, code: "NOT_FOUND" });
    }
    return sendSpa(pathname, reply);
  });
});
