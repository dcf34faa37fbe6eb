import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseRandToCents } from "#domain/money.js";
import { orderTotals } from "#domain/pricing.js";
import { call, sessionCookie } from "./http.js";

export interface Customer {
  id: string;
  username: string;
  email: string;
  password: string;
  cookie: string;
}

/** Registers and logs in a customer through the real routes of a running app. */
export async function registerCustomer(baseUrl: string, prefix = "rel"): Promise<Customer> {
  const username = `${prefix}_${randomBytes(5).toString("hex")}`;
  const email = `${username}@example.co.za`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const registered = await call(baseUrl, "POST", "/api/auth/register", {
    body: { username, email, password, fullName: `Reliability ${username}` },
  });
  if (registered.status !== 201 && registered.status !== 200) {
    throw new Error(`register answered ${registered.status}: ${registered.text}`);
  }
  const { id } = registered.json as { id: string };
  const cookie = await logIn(baseUrl, username, password);
  return { id, username, email, password, cookie };
}

export async function logIn(baseUrl: string, username: string, password: string): Promise<string> {
  const login = await call(baseUrl, "POST", "/api/auth/login", { body: { username, password } });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  return sessionCookie(login.headers);
}

/** A random hex id, for x-request-id and unique names. */
export const tag = () => randomBytes(6).toString("hex");

export interface CatalogProduct {
  id: string;
  name: string;
  price: string;
  sizes: string[];
  /** Each size's own price (issue 28); `price` is the lowest. */
  sizePrices?: Record<string, string>;
  sizeOutOfStock: Record<string, boolean>;
  outOfStock: boolean;
}

/** Products and sizes a shopper can buy. */
export async function buyableProducts(baseUrl: string): Promise<{ product: CatalogProduct; size: string }[]> {
  const answer = await call(baseUrl, "GET", "/api/products");
  if (answer.status !== 200) throw new Error(`products answered ${answer.status}`);
  // Products without multi-buy tiers: orderBody's figures are the plain ones (the tiers' own
  // arithmetic is tests/api/multibuy.test.ts's), and a fault test is about faults, not prices.
  return (answer.json as (CatalogProduct & { multibuyTiers?: unknown[] })[])
    .filter((product) => !product.outOfStock && (product.multibuyTiers ?? []).length === 0)
    .flatMap((product) =>
      product.sizes.filter((size) => !product.sizeOutOfStock[size]).map((size) => ({ product, size })),
    );
}

export interface CartLine {
  productId: string;
  name: string;
  size: string;
  quantity: number;
  unitPriceCents: number;
}

/** The body of POST /api/create-order for these lines, with the figures the server will agree with. */
export function orderBody(lines: readonly CartLine[], customer: Customer) {
  const totals = orderTotals(lines);
  return {
    subtotal: totals.subtotalCents / 100,
    deliveryFee: totals.deliveryFeeCents / 100,
    total: totals.totalCents / 100,
    items: lines.map((line) => ({
      id: line.productId,
      name: line.name,
      size: line.size,
      quantity: line.quantity,
      price: line.unitPriceCents / 100,
    })),
    customerEmail: customer.email,
    userId: customer.id,
    deliveryInfo: {
      name: "Thandi Mokoena",
      phone: "082 555 0101",
      email: customer.email,
      address: "12 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
      suburb: "Hatfield",
    },
  };
}

/** What one pack of a size costs, as the catalogue says. */
export const sizePrice = (product: CatalogProduct, size: string): string => product.sizePrices?.[size] ?? product.price;

/** A cart of 1-4 distinct lines picked with `random` from what can be bought. */
export function randomCart(choices: readonly { product: CatalogProduct; size: string }[], random: () => number) {
  const count = 1 + Math.floor(random() * 4);
  const lines = new Map<string, CartLine>();
  while (lines.size < count) {
    const choice = choices[Math.floor(random() * choices.length)];
    if (!choice) continue;
    const price = sizePrice(choice.product, choice.size);
    const unitPriceCents = parseRandToCents(price);
    if (unitPriceCents === null) throw new Error(`unreadable price ${price}`);
    lines.set(`${choice.product.id}|${choice.size}`, {
      productId: choice.product.id,
      name: choice.product.name,
      size: choice.size,
      quantity: 1 + Math.floor(random() * 3),
      unitPriceCents,
    });
  }
  return [...lines.values()];
}

/** A stand-in for PayFast's /eng/query/validate that calls every ITN VALID (point PAYFAST_VALIDATE_URL at it). */
export async function startValidator(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("VALID"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/eng/query/validate`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
