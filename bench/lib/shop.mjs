// Shop-shaped test data: customers signed up and logged in through the API, and carts priced the
// way the browser prices them (with the shop's own pricing module from dist/).
import { fromDist } from "./harness.mjs";

/** A small deterministic PRNG (mulberry32), so every run sends the same carts. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function postJson(url, body, headers = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

/**
 * Registers and logs in `count` customers through POST /api/auth/register and /login, a few at a
 * time (password hashing is deliberately slow). Returns { id, email, fullName, cookie } each.
 */
export async function signUpCustomers(appUrl, count, { prefix = "bench", concurrency = 4 } = {}) {
  const customers = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const username = `${prefix}-customer-${index}`;
      const password = `correct horse ${index} battery`;
      const profile = {
        username,
        email: `${username}@example.co.za`,
        password,
        fullName: `Thandi Customer ${index}`,
        phone: "082 123 4567",
        address: `${index + 1} Long Street`,
        city: "Cape Town",
        zipCode: "8001",
      };
      const registered = await postJson(`${appUrl}/api/auth/register`, profile);
      if (registered.status !== 201) {
        throw new Error(`register ${username}: HTTP ${registered.status} ${JSON.stringify(registered.json)}`);
      }
      const login = await postJson(`${appUrl}/api/auth/login`, { username, password });
      if (login.status !== 200)
        throw new Error(`login ${username}: HTTP ${login.status} ${JSON.stringify(login.json)}`);
      const sid = login.headers.getSetCookie().find((cookie) => cookie.startsWith("sid="));
      if (!sid) throw new Error(`login ${username}: no sid cookie`);
      customers[index] = {
        id: login.json.id,
        email: profile.email,
        fullName: profile.fullName,
        cookie: sid.split(";")[0],
        // Each customer shops from an address of their own, as real ones do: sent as X-Forwarded-For,
        // which a target started with TRUST_PROXY=127.0.0.1 believes (the order limits count per address).
        address: customerAddress(index),
      };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return customers;
}

/** A distinct client address per customer index (TEST-NET-style private range, never a real host). */
export function customerAddress(index) {
  return `10.26.${(index >> 8) & 255}.${index & 255}`;
}

/** The headers a customer's requests carry: the session cookie and the customer's own address. */
export function customerHeaders(customer) {
  return { cookie: customer.cookie, "x-forwarded-for": customer.address };
}

/** The products a cart may hold (in stock, with an in-stock size), from GET /api/products. */
export async function orderableProducts(appUrl) {
  const response = await fetch(`${appUrl}/api/products`);
  const products = await response.json();
  return products
    .filter((product) => !product.outOfStock)
    .map((product) => ({ ...product, sizes: product.sizes.filter((size) => !product.sizeOutOfStock[size]) }))
    .filter((product) => product.sizes.length > 0);
}

/**
 * A valid POST /api/create-order body for `customer`: 1-4 lines, the figures computed as the
 * checkout page computes them (numbers in rand, docs/product.md §7). Also returns the lines and
 * totals in cents, for the baseline's raw inserts.
 */
export async function cartOrder(customer, products, rng) {
  const lines = [];
  const count = 1 + Math.floor(rng() * 4);
  for (let i = 0; i < count; i++) {
    const product = products[Math.floor(rng() * products.length)];
    const size = product.sizes[Math.floor(rng() * product.sizes.length)];
    if (lines.some((line) => line.id === product.id && line.size === size)) continue;
    lines.push({ ...product, size, quantity: 1 + Math.floor(rng() * 3) });
  }
  return orderFor(customer, lines);
}

/**
 * The POST /api/create-order body of `customer` buying `lines` (each a product as GET
 * /api/products answers it, with the `size` and `quantity` wanted), priced as the checkout page
 * prices it (src/web/features/checkout/checkout-page.tsx): the goods, less the multi-buy saving of
 * the products' tiers (seeded since issue 42), plus the door delivery the page picks first, sent as
 * the chosen option (decision 051); with the lines and totals in cents (the total after the saving).
 */
export async function orderFor(customer, wanted) {
  const { parseRandToCents } = await fromDist("domain/money.js");
  const { orderTotals } = await fromDist("domain/pricing.js");
  const { multibuySavings } = await fromDist("domain/multibuy.js");
  // Each size has its own price (sizePrices, issue 28); `price` is the lowest.
  const lines = wanted.map((line) => {
    const price = line.sizePrices?.[line.size] ?? line.price;
    return { ...line, price, unitPriceCents: parseRandToCents(price) };
  });
  const plain = orderTotals(lines);
  const multibuy = multibuySavings(
    lines.map((line) => ({
      productId: line.id,
      quantity: line.quantity,
      amountCents: line.unitPriceCents * line.quantity,
    })),
    (productId) => lines.find((line) => line.id === productId)?.multibuyTiers ?? [],
  );
  const totals = {
    ...plain,
    multibuyDiscountCents: multibuy.discountCents,
    totalCents: plain.totalCents - multibuy.discountCents,
  };
  const rand = (cents) => cents / 100;
  const body = {
    subtotal: rand(totals.subtotalCents),
    deliveryFee: rand(totals.deliveryFeeCents),
    total: rand(totals.totalCents),
    items: lines.map((line) => ({
      id: line.id,
      name: line.name,
      size: line.size,
      quantity: line.quantity,
      price: Number(line.price),
    })),
    customerEmail: customer.email,
    userId: customer.id,
    delivery: { service: "door_economy" },
    deliveryInfo: {
      name: customer.fullName,
      phone: "082 123 4567",
      email: customer.email,
      address: "12 Long Street",
      city: "Cape Town",
      province: "Western Cape",
      zipCode: "8001",
      suburb: "City Centre",
    },
  };
  // Each line's share of the saving, as create-order stores it (order_items.multibuy_discount_cents).
  const priced = lines.map((line, index) => ({
    ...line,
    multibuyDiscountCents: multibuy.lineDiscountsCents[index] ?? 0,
  }));
  return { body, lines: priced, totals };
}
