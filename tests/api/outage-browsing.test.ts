import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config.js";
import { STALE_HEADER, STALE_REASON } from "#server/platform/http-cache/send-cached.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, createTestDatabase, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { sourcePageRenderer } from "../helpers/page-renderer.js";
import { inStockSizes, type StockedProduct, sizePriceCents, stockedCatalog, stockOf } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

const PUBLIC_URL = "http://localhost:3000";

/**
 * The wire between the shop and its PostgreSQL: a TCP relay in this process. `cut()` closes every
 * connection through it and refuses new ones (ECONNREFUSED), as a stopped database server does from
 * the shop's side; `mend()` listens again on the same port.
 */
class DatabaseWire {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | null = null;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async mend(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

let t: TestApp;
let wire: DatabaseWire;
/** The test's own connection to the database, past the wire: it works through the outage. */
let direct: pg.Client;
let shopper: LoggedInUser;
let admin: SignedIn;
let product: StockedProduct;
let size: string;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const real = new URL(databaseUrl);
  wire = new DatabaseWire({ host: real.hostname, port: Number(real.port || 5432) });
  await wire.mend();
  const throughWire = new URL(databaseUrl);
  throughWire.hostname = "127.0.0.1";
  throughWire.port = String(wire.port);
  const pageRenderer = await sourcePageRenderer(loadConfig({ PUBLIC_URL }));
  t = await buildTestApp({ PUBLIC_URL }, { pageRenderer }, throughWire.toString());
  direct = new pg.Client({ connectionString: databaseUrl });
  await direct.connect();
  shopper = await registerAndLogin(t);
  admin = await signInAsAdmin(t);
  const found = (await stockedCatalog(t.db)).find((candidate) => inStockSizes(candidate).length > 0);
  if (!found) throw new Error("the seed has no product in stock");
  product = found;
  size = inStockSizes(found)[0] as string;
});
afterAll(async () => {
  await wire.mend().catch(() => {});
  await direct?.end();
  await t?.close();
  await wire.cut();
});

const get = (url: string) => t.app.inject({ method: "GET", url });

/** The storefront's reads: the catalogue API a browser makes, and the server-rendered pages. */
const storefront = () => [
  "/api/products",
  "/api/categories",
  "/api/products/search",
  `/api/products/by-slug/${product.slug}`,
  `/products/${product.slug}`,
  "/",
];

function expectUnavailable(answer: Awaited<ReturnType<typeof get>>) {
  expect(answer.statusCode, answer.body).toBe(503);
  expect(answer.headers["retry-after"]).toBe("5");
  expect(answer.json()).toEqual({ message: expect.any(String), code: "SERVICE_UNAVAILABLE" });
}

describe("with the database stopped", () => {
  const before = new Map<string, string>();

  it("answers the storefront fresh, unmarked, while the database is up", async () => {
    for (const url of storefront()) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers[STALE_HEADER], url).toBeUndefined();
      before.set(url, answer.body);
    }
    expect(before.get(`/products/${product.slug}`)).toContain(product.name.replaceAll("&", "&amp;"));
  });

  it("serves the catalogue API and the product page from the cache, marked stale", async () => {
    await wire.cut();
    // The cache learns of the outage when its LISTEN connection drops; until then its answers are current.
    const noticed = await waitFor(
      () => get("/api/products"),
      (answer) => answer.headers[STALE_HEADER] === STALE_REASON,
    );
    expect(noticed.headers[STALE_HEADER]).toBe(STALE_REASON);
    for (const url of storefront()) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers[STALE_HEADER], url).toBe(STALE_REASON);
      // No CDN or browser keeps a stale answer without asking again.
      expect(answer.headers["cache-control"], url).toBe("no-cache");
      expect(answer.body, url).toBe(before.get(url));
    }
  });

  it("answers 503 with Retry-After for what was never cached", async () => {
    expectUnavailable(await get("/products/no-such-product-ever-seen"));
    expectUnavailable(await get("/api/products/search?q=never-searched"));
  });

  it("answers create-order, logging in and the admin with 503 { message, code } and Retry-After", async () => {
    const order = createOrderPayload(shopper, [
      { id: product.id, name: product.name, priceCents: sizePriceCents(product, size), size, quantity: 1 },
    ]);
    expectUnavailable(
      await t.app.inject({ method: "POST", url: "/api/create-order", headers: shopper.headers, payload: order }),
    );
    expectUnavailable(
      await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: shopper.user.username, password: shopper.password },
      }),
    );
    expectUnavailable(
      await t.app.inject({ method: "GET", url: "/api/admin/orders", headers: { cookie: admin.cookie } }),
    );
  });

  it("never sells at a stale price: create-order reads price and stock from the database", async () => {
    // The price changes while the shop cannot hear of it: its stale answers still show the old one.
    const oldCents = sizePriceCents(product, size);
    const newCents = oldCents + 1_000;
    await direct.query("update products set price_cents = $1, size_prices = '{}'::jsonb where id = $2", [
      newCents,
      product.id,
    ]);
    const stale = await get(`/api/products/by-slug/${product.slug}`);
    expect(stale.headers[STALE_HEADER]).toBe(STALE_REASON);
    expect(stale.body).toBe(before.get(`/api/products/by-slug/${product.slug}`));

    await wire.mend();
    const line = { id: product.id, name: product.name, size, quantity: 1 };
    const atStalePrice = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: createOrderPayload(shopper, [{ ...line, priceCents: oldCents }]),
    });
    expect(atStalePrice.statusCode, atStalePrice.body).toBe(409);
    expect(atStalePrice.json().code).toBe("CART_CHANGED");

    const heldBefore = (await stockOf(t.db, product.id, size))?.held ?? 0;
    const placed = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: createOrderPayload(shopper, [{ ...line, priceCents: newCents }]),
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect((await stockOf(t.db, product.id, size))?.held).toBe(heldBefore + 1);
  });

  it("answers fresh and unmarked again once the database is back", async () => {
    // Listening again: answers are kept in the cache again, and the last good copies are gone.
    const listening = await waitFor(
      async () => (await get("/api/products")).statusCode === 200 && t.app.catalogCache.peek("products") !== undefined,
      (kept) => kept,
    );
    expect(listening).toBe(true);
    expect(t.app.catalogCache.lastGoodHeldBytes).toBe(0);
    const answer = await get(`/api/products/by-slug/${product.slug}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers[STALE_HEADER]).toBeUndefined();
    expect(answer.headers["cache-control"]).not.toBe("no-cache");
    expect(answer.body).not.toBe(before.get(`/api/products/by-slug/${product.slug}`));
    expect(t.app.catalogCache.lastGoodHeldBytes).toBe(0);
  });
});
