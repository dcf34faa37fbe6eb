import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { categoryOfPath, DEFAULT_FILTER, productPath, searchParamsOf } from "#domain/catalog.js";
import { LEGAL_API, POLICY_KINDS, policyApiPath, policyPath, policyVersionPath } from "#domain/policies.js";
import type { Category, Product } from "#domain/schemas/catalog.js";
import type { CatalogPage, ProductWithRelated } from "#domain/schemas/catalog-search.js";
import { SLUG_PATTERN } from "#domain/slug.js";
import { cachedCategories, cachedProductBySlug, cachedSearch, searchQueryOf } from "../catalog/routes.js";
import { redirectedSlug } from "../catalog/slugs.js";
import { type CachedBody, negotiateCoding } from "../platform/http-cache/cache.js";
import { answerCached, CACHED_ROUTE } from "../platform/http-cache/send-cached.js";
import { legalPage } from "../policies/legal.js";
import { pageDocument, templateDescription } from "./document.js";
import {
  categoryHead,
  headTags,
  legalHead,
  notFoundHead,
  type PageHead,
  policyHead,
  productHead,
  storefrontHead,
} from "./head.js";
import type { PageData, PageRenderer } from "./renderer.js";
import { robotsTxt, sitemapXml } from "./sitemap.js";
import { injectShopConfig, pageConfig } from "./static-files.js";

const HTML = "text/html; charset=utf-8";
const XML = "application/xml; charset=utf-8";

/** Thrown inside a page's load when its product or category is not (or no longer) in the catalogue. */
class PageGone extends Error {}

/**
 * The storefront's addresses rendered on the server (docs/decisions/012-server-rendering.md): /,
 * /category/{name} and /products/{slug}, kept in the catalogue cache and so cleared by the same
 * NOTIFY as the catalogue answers; an unknown product 404s with noindex, an old slug 301s to the
 * current one. /sitemap.xml and /robots.txt are served whether or not pages are rendered.
 */
export const pageRoutes = fp<{ renderer: PageRenderer | null }>(async (app, { renderer }) => {
  registerAlwaysServed(app);
  if (!renderer) return;
  const pages = new PageMaker(app, renderer);
  registerPolicyPages(app, pages);
  registerCatalogPages(app, pages);
});

/** Answers from the cache entry `key`, loading it when needed: synchronous while the cache is warm. */
function serveCached(
  app: FastifyInstance,
  key: string,
  contentType: string,
  load: () => Promise<Buffer>,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  return answerCached(app.catalogCache, key, contentType, load, request, reply);
}

/**
 * A page's answer, or `gone()`'s when its product or category is not in the catalogue. A warm
 * page stays synchronous: only a page being made waits.
 */
function orGone(
  served: FastifyReply | Promise<FastifyReply>,
  gone: () => Promise<FastifyReply>,
): FastifyReply | Promise<FastifyReply> {
  return served instanceof Promise
    ? served.catch((error: unknown) => {
        if (error instanceof PageGone) return gone();
        throw error;
      })
    : served;
}

/** /robots.txt, /sitemap.xml and the terms' old address: served whether or not pages are rendered. */
function registerAlwaysServed(app: FastifyInstance): void {
  const { publicUrl } = app.config;
  const robots = robotsTxt(publicUrl);
  app.get("/robots.txt", (_request, reply) =>
    reply.header("cache-control", "public, max-age=3600").type("text/plain; charset=utf-8").send(robots),
  );

  app.get("/sitemap.xml", CACHED_ROUTE, (request, reply) =>
    serveCached(
      app,
      "page:/sitemap.xml",
      XML,
      async () => Buffer.from(await sitemapXml(app.db, publicUrl)),
      request,
      reply,
    ),
  );

  // The terms' old address (before the policies were versioned content).
  app.get("/terms-and-conditions", (_request, reply) => reply.redirect(policyPath("terms"), 301));
}

/** Renders the pages into the catalogue cache, from the renderer's template with the shop's settings. */
class PageMaker {
  readonly template: string;
  /**
   * The cached answers as objects, parsed once per cached answer (a warm cache hands back the same
   * CachedBody) rather than by every page load. Shared by every render, so never changed.
   */
  readonly #parsed = new WeakMap<CachedBody, unknown>();

  constructor(
    readonly app: FastifyInstance,
    readonly renderer: PageRenderer,
  ) {
    this.template = injectShopConfig(renderer.template, pageConfig(app.config));
  }

  parse<T>(cached: CachedBody): T {
    let value = this.#parsed.get(cached);
    if (value === undefined) {
      value = JSON.parse(cached.body.toString("utf8"));
      this.#parsed.set(cached, value);
    }
    return value as T;
  }

  async categories(): Promise<Category[]> {
    return this.parse<Category[]>(await cachedCategories(this.app));
  }

  async categoriesQuery() {
    return { key: ["/api/categories"], data: await this.categories() };
  }

  async render(
    path: string,
    head: PageHead,
    queries: PageData["queries"],
    extra: Omit<PageData, "queries"> = {},
  ): Promise<Buffer> {
    const { publicUrl, shop } = this.app.config;
    const pageData: PageData = { queries, ...extra };
    const appHtml = await this.renderer.renderApp(path, pageData);
    return Buffer.from(pageDocument(this.template, headTags(head, publicUrl, shop.name), appHtml, pageData));
  }

  /**
   * A storefront page carries the first page of its products (48) and the categories, no more
   * (docs/decisions/026-pages-that-stay-small.md). The keys are the browser's queries'
   * (src/web/features/catalog/api/): the search's first page.
   */
  async storefront(path: string, head: PageHead, category: string | null): Promise<Buffer> {
    const params = searchParamsOf({ ...DEFAULT_FILTER, category });
    const first = this.parse<CatalogPage>(await cachedSearch(this.app, searchQueryOf(params)));
    return this.render(path, head, [
      { key: ["/api/products", "search", params], data: first },
      await this.categoriesQuery(),
    ]);
  }

  /** A product's page carries its product and a few related ones; PageGone for a product not in the catalogue. */
  async product(path: string, slug: string, head: (product: Product) => PageHead): Promise<Buffer> {
    const found = await cachedProductBySlug(this.app, slug);
    if (!found) throw new PageGone();
    // Parsed for this render only: a product's data makes one page, rendered again only when that
    // page leaves the cache, so keeping the objects would only hold memory the cache does not count.
    const data = JSON.parse(found.body.toString("utf8")) as ProductWithRelated;
    return this.render(path, head(data.product), [
      { key: ["/api/products", "by-slug", slug], data },
      await this.categoriesQuery(),
    ]);
  }

  /** A route's handler answering the page cached under `key`, made by `load` when needed. */
  page(key: string, load: () => Promise<Buffer>) {
    return (request: FastifyRequest, reply: FastifyReply) => serveCached(this.app, key, HTML, load, request, reply);
  }

  /**
   * The 404 page of an unknown product or category, with noindex. Every unknown address of a kind
   * renders the same page (tests/api/seo.test.ts holds that), so it is rendered once per catalogue
   * change and kept under one key per kind: made-up addresses neither fill the memory nor cost a
   * render each. Compressed like the pages, never answered with a 304.
   */
  async notFound(path: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const kind = path.split("/")[1];
    // The products' 404 page says the address's product is missing, whatever its slug, so the
    // browser's first render shows not found as the server's did.
    const cached = await this.app.catalogCache.get(`page:404:${kind}`, async () =>
      this.render(path, notFoundHead(this.app.config.shop.name), [await this.categoriesQuery()], {
        ...(kind === "products" ? { missingProduct: true } : {}),
      }),
    );
    const coding = negotiateCoding(request.headers["accept-encoding"]);
    const encoded = await cached.encodedAs(coding);
    reply.status(404).header("cache-control", "no-cache").header("vary", "accept-encoding").type(HTML);
    if (coding === "identity") return reply.send(encoded);
    if (encoded.length >= cached.length) return reply.send(cached.body);
    return reply.header("content-encoding", coding).send(encoded);
  }
}

/** The Legal page and the owner's policies (src/server/policies/): their own data only, no catalogue. */
function registerPolicyPages(app: FastifyInstance, pages: PageMaker): void {
  const { shop } = app.config;
  app.get("/legal", CACHED_ROUTE, (request, reply) =>
    serveCached(
      app,
      "page:/legal",
      HTML,
      () => pages.render("/legal", legalHead(shop.name), [{ key: [LEGAL_API], data: legalPage(app.config) }]),
      request,
      reply,
    ),
  );
  for (const kind of POLICY_KINDS) {
    const policy = (version: number | null, request: FastifyRequest, reply: FastifyReply) => {
      const path = version === null ? policyPath(kind) : policyVersionPath(kind, version);
      return orGone(
        serveCached(
          app,
          `page:${path}`,
          HTML,
          async () => {
            const found = await app.policies.version(kind, version);
            if (!found) throw new PageGone();
            return pages.render(path, policyHead(found, path, shop.name), [
              { key: [policyApiPath(kind, version)], data: found },
            ]);
          },
          request,
          reply,
        ),
        () => pages.notFound(path, request, reply),
      );
    };
    app.get(policyPath(kind), CACHED_ROUTE, (request, reply) => policy(null, request, reply));
    app.get<{ Params: { version: string } }>(`${policyPath(kind)}/v/:version`, CACHED_ROUTE, (request, reply) => {
      const { version } = request.params;
      if (!/^[1-9]\d{0,8}$/.test(version)) return pages.notFound(`${policyPath(kind)}/v/${version}`, request, reply);
      return policy(Number(version), request, reply);
    });
  }
}

/** The storefront's catalogue pages: /, /category/{name} and /products/{slug}. */
function registerCatalogPages(app: FastifyInstance, pages: PageMaker): void {
  const { publicUrl, shop } = app.config;
  const defaultTitle = `${shop.name} | Nappies, period care and more, delivered across South Africa`;
  const defaultDescription = templateDescription(pages.template);

  app.get(
    "/",
    CACHED_ROUTE,
    pages.page("page:/", () =>
      pages.storefront("/", storefrontHead(defaultTitle, defaultDescription, publicUrl, shop.name), null),
    ),
  );

  app.get<{ Params: { category: string } }>("/category/:category", CACHED_ROUTE, (request, reply) => {
    const name = categoryOfPath(request.url.split("?")[0] ?? "");
    const path = `/category/${encodeURIComponent(name ?? "")}`;
    return orGone(
      pages.page(`page:${path}`, async () => {
        const category = (await pages.categories()).find((candidate) => candidate.name === name);
        if (!category) throw new PageGone();
        return pages.storefront(path, categoryHead(category, shop.name), category.name);
      })(request, reply),
      () => pages.notFound(path, request, reply),
    );
  });

  app.get<{ Params: { slug: string } }>("/products/:slug", CACHED_ROUTE, (request, reply) => {
    const { slug } = request.params;
    const path = productPath(slug);
    if (!SLUG_PATTERN.test(slug)) return pages.notFound(path, request, reply);
    return orGone(
      pages.page(`page:${path}`, () =>
        pages.product(path, slug, (product) => productHead(product, publicUrl, shop.name)),
      )(request, reply),
      async () => {
        const current = await redirectedSlug(app.db, slug);
        if (current) return reply.status(301).header("cache-control", "no-cache").redirect(productPath(current), 301);
        return pages.notFound(path, request, reply);
      },
    );
  });
}
