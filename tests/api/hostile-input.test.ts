import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { signItnFields } from "#server/payfast/signature.js";
import { type SignedIn, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

/**
 * Property-based hostile input: fast-check generates requests to every endpoint (docs/product.md
 * §7, auth, orders, PayFast, health, the emulator, unknown paths) as a guest, a customer
 * and an admin. Every answer must be below 500, and every error a JSON `{ message }`.
 */

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
let spare: SignedIn;
const fixtures = {
  productId: "",
  productPriceCents: 0,
  productSize: "",
  categoryId: "",
  orderId: "",
  orderTotal: "",
};
let sent = 0;

const BODY_LIMIT = 100 * 1024;

beforeAll(async () => {
  // Rate limits high enough that hostile bodies of the right shape reach the password and database code.
  t = await buildTestApp({
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    LOG_LEVEL: process.env.HOSTILE_LOG_LEVEL ?? "silent",
  });
  admin = await signInAsAdmin(t);
  customer = await signIn(t);
  spare = await signIn(t);
  const { rows: products } = await t.pool.query<{ id: string; price_cents: number; size: string }>(
    // The size's own price (docs/decisions/022-prices-per-size.md), the product's when it has none.
    `select products.id, coalesce((products.size_prices ->> product_stock.size)::int, products.price_cents) as price_cents,
       product_stock.size from products
     join product_stock on product_stock.product_id = products.id and product_stock.quantity > product_stock.held
     order by products.name, product_stock.size limit 1`,
  );
  const product = products[0];
  if (!product) throw new Error("no seeded product");
  fixtures.productId = product.id;
  fixtures.productPriceCents = product.price_cents;
  fixtures.productSize = product.size;
  const { rows: categories } = await t.pool.query<{ id: string }>(
    "insert into categories (name, description) values ('hostile-fixture', '') returning id",
  );
  fixtures.categoryId = categories[0]?.id ?? "";
  const created = await inject({
    method: "POST",
    url: "/api/create-order",
    headers: { cookie: customer.cookie },
    payload: validOrder(),
  });
  expect(created.statusCode, created.body).toBe(200);
  fixtures.orderId = (created.json() as { orderId: string }).orderId;
  fixtures.orderTotal = centsToDecimal(orderCents().total);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function inject(options: InjectOptions) {
  sent++;
  return t.app.inject(options);
}

// ---------------------------------------------------------------- valid shapes to start from

function orderCents() {
  const subtotal = fixtures.productPriceCents * 2;
  const delivery = subtotal >= 50_000 ? 0 : 7_500;
  return { subtotal, delivery, total: subtotal + delivery };
}

function validOrder(): Record<string, unknown> {
  const cents = orderCents();
  return {
    subtotal: cents.subtotal / 100,
    deliveryFee: cents.delivery / 100,
    total: cents.total / 100,
    items: [
      {
        id: fixtures.productId,
        name: "Fixture",
        size: fixtures.productSize,
        quantity: 2,
        price: fixtures.productPriceCents / 100,
      },
    ],
    customerEmail: "shopper@example.co.za",
    userId: null,
    deliveryInfo: {
      name: "Thandi Mokoena",
      phone: "082 555 0101",
      email: "shopper@example.co.za",
      address: "12 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
      suburb: "Hatfield",
      complex: "Unit 4, Jacaranda Court",
      deliveryInstructions: "Gate code 1234, leave with security",
      altPhone: "012 555 0102",
    },
  };
}

const validBodies = {
  register: () => ({
    username: "hostile_user",
    email: "hostile@example.co.za",
    password: "a long enough password",
    fullName: "Hostile Input",
    phone: "082 555 0101",
    address: "1 Main Road",
    city: "Durban",
    zipCode: "4001",
  }),
  login: () => ({ username: customer.username, password: "wrong password" }),
  profile: () => ({
    fullName: "Profile Name",
    email: spare.email,
    phone: "082 555 0101",
    address: "1 Main Road",
    city: "Durban",
    zipCode: "4001",
    suburb: "Berea",
    province: "KwaZulu-Natal",
    complex: "Unit 2",
    deliveryInstructions: "Leave with security",
    altPhone: "031 555 0102",
  }),
  category: () => ({ name: "hostile-category", description: "made by the hostile input test" }),
  product: () => ({
    name: "Hostile Product",
    category: "baby",
    price: "49.99",
    image: "/images/products/adult-briefs-super.svg",
    description: "A product the hostile input test made",
    sizes: ["S", "M"],
    sizeImages: { S: "/images/products/adult-briefs-super.svg" },
    sizeOutOfStock: { M: true },
    outOfStock: false,
    promoText: "Two for one",
  }),
  stockAlert: () => ({ productId: fixtures.productId, size: fixtures.productSize, email: "alert@example.co.za" }),
  stockAlertLink: () => ({ token: "eyJwIjoidSJ9.c2lnbmF0dXJl" }),
  status: () => ({ status: "completed" }),
  cancel: () => ({ reason: "Customer phoned" }),
  refund: () => ({ amountCents: 1_000, reason: "Damaged in transit", restock: true }),
  returnRequest: () => ({ reason: "defective", lines: [{ lineId: 1, quantity: 1 }], details: "It leaks at the side" }),
  returnDecline: () => ({ reason: "The photos show normal use" }),
  recordRefund: () => ({
    amountCents: 1_000,
    reason: "Refunded in PayFast",
    restock: false,
    refundedOn: "2026-01-05",
    payfastReference: "PF-12345",
  }),
  adminRights: () => ({ isAdmin: false }),
  order: validOrder,
};

// ---------------------------------------------------------------- hostile values

const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1; select pg_sleep(10)",
  '" OR ""="',
  "admin'--",
  "%' union select password_hash from users --",
  "$1",
  "\\",
];
const HTML = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"><svg onload=alert(1)>',
  "javascript:alert(1)",
  "{{7*7}}",
  `\${7*7}`,
  "</script><script>alert(1)</script>",
];
const WEIRD = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "\uffff",
  "\u202e",
  "🙂👶🏽",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "0x10",
  "Infinity",
  "__proto__",
  "constructor",
  "%00",
  "../../etc/passwd",
  "\r\nSet-Cookie: a=b",
  "true",
  "249.999",
  "-249.99",
  "R249.99",
  "1,299.00",
];
const NUMBERS = [
  -1,
  0,
  0.5,
  1.5,
  -0.01,
  0.001,
  999,
  1000,
  1e9,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];
const KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "isAdmin",
  "id",
  "userId",
  "status",
  "paidBy",
  "passwordHash",
  "toString",
  "hasOwnProperty",
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SQL, ...HTML, ...WEIRD) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 3_000 }).map((length) => "é".repeat(length)) },
  { weight: 1, arbitrary: fc.integer({ min: 5_000, max: 30_000 }).map((length) => "x".repeat(length)) },
);
const hostileScalar = fc.oneof(
  hostileString,
  fc.constantFrom(...NUMBERS),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const hostileKey = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 12 }));
/** An object with these own keys, "__proto__" included (a plain assignment would set the prototype instead). */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileScalar,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(hostileKey, tie("value")), { maxLength: 4 }).map(objectOf),
  ),
}));

/** JSON nested `depth` levels deep, as text (JSON.stringify would refuse nothing, but this is cheaper). */
const deepJson = fc
  .tuple(fc.integer({ min: 100, max: 5_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  );

type Path = (string | number)[];

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [prefix];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => leafPaths(item, [...prefix, key]))];
}

function setAt(target: unknown, path: Path, value: unknown, remove: boolean): unknown {
  if (path.length === 0) return remove ? undefined : value;
  const root = structuredClone(target) as Record<string | number, unknown>;
  let node = root;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else {
    Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  }
  return root;
}

/** A valid body, then 0-4 edits: a field set to a hostile value, removed, or an extra field added. */
function mutated(base: () => unknown) {
  const sample = base();
  const paths = leafPaths(sample);
  const inner = paths.filter((path) => path.length > 0);
  const containers = paths.filter((path) => {
    const node = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], sample);
    return node !== null && typeof node === "object" && !Array.isArray(node);
  });
  type Edit = { path: Path; value: unknown; remove: boolean };
  const edits: fc.Arbitrary<Edit>[] = [
    fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, value]) => ({ path, value, remove: false })),
  ];
  if (inner.length > 0) edits.push(fc.constantFrom(...inner).map((path) => ({ path, value: null, remove: true })));
  if (containers.length > 0) {
    edits.push(
      fc
        .tuple(fc.constantFrom(...containers), hostileKey, hostileValue)
        .map(([path, key, value]) => ({ path: [...path, key], value, remove: false })),
    );
  }
  const edit = fc.oneof(...edits);
  return fc.array(edit, { maxLength: 4 }).map((edits) => {
    let body: unknown = base();
    for (const { path, value, remove } of edits) {
      try {
        body = setAt(body, path, value, remove);
      } catch {
        // An earlier edit replaced a container this path went through: skip it.
      }
    }
    return body;
  });
}

const MALFORMED = [
  "{",
  '{"a":',
  "nul",
  "[1,2",
  '{"name": "x",}',
  "{'name': 'x'}",
  '{"__proto__": {"isAdmin": true}, "name": "x"}',
  '{"constructor": {"prototype": {"isAdmin": true}}}',
  '{"a": 1, "a": 2}',
  '"just a string"',
  "12345",
  "true",
  "null",
  "[]",
  "\u0000",
  '{"name": "\\ud800"}',
  '{"name": "\\u0000"}',
  "\ufeff{}",
];

interface RawBody {
  payload: string | Buffer | undefined;
  contentType: string | undefined;
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  'application/json; charset="',
  "application/vnd.api+json",
  "text/plain",
  "text/html",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=----x",
  "application/octet-stream",
  "}{",
];

/** A JSON body as a hostile client sends it: mostly the edited object, sometimes broken bytes or headers. */
function jsonBody(base: () => unknown): fc.Arbitrary<RawBody> {
  const asJson = (value: unknown) => JSON.stringify(value) ?? "null";
  return fc.oneof(
    {
      weight: 12,
      arbitrary: mutated(base).map((value) => ({ payload: asJson(value), contentType: "application/json" })),
    },
    {
      weight: 2,
      arbitrary: hostileValue.map((value) => ({ payload: asJson(value), contentType: "application/json" })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...MALFORMED).map((payload) => ({ payload, contentType: "application/json" })),
    },
    { weight: 1, arbitrary: deepJson.map((payload) => ({ payload, contentType: "application/json" })) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT + 20_000 })
        .map((size) => ({ payload: `{"name":"${"x".repeat(size)}"}`, contentType: "application/json" })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(mutated(base), fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }))
        .map(([value, contentType]) => ({ payload: asJson(value), contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) => ({ payload: Buffer.from(bytes), contentType: "application/json" })),
    },
    { weight: 1, arbitrary: fc.constant({ payload: undefined, contentType: "application/json" }) },
    { weight: 1, arbitrary: fc.constant({ payload: "", contentType: undefined }) },
  );
}

// ---------------------------------------------------------------- who asks, and where

type Who = "guest" | "customer" | "admin" | "forged" | "stale";
const who = fc.constantFrom<Who>("guest", "customer", "admin", "admin", "forged", "stale");
/** Mostly no session: for routes whose body is checked before the session matters, or paths that route nowhere. */
const mostlyGuest = fc.constantFrom<Who>(
  "guest",
  "guest",
  "guest",
  "guest",
  "guest",
  "customer",
  "admin",
  "forged",
  "stale",
);

function cookieFor(identity: Who): string | undefined {
  switch (identity) {
    case "guest":
      return undefined;
    case "customer":
      return customer.cookie;
    case "admin":
      return admin.cookie;
    case "forged":
      return "sid=' OR 1=1 --; sid=<script>";
    case "stale":
      return `sid=${"A".repeat(43)}`;
  }
}

/** Sometimes extra headers a hostile client adds: a lying x-user-id, a foreign Origin, odd caching headers. */
const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.uuid(),
        hostileString.filter((value) => value.length < 200),
      )
      .map((id) => ({
        "x-user-id": headerSafe(id),
      })),
  },
  { weight: 1, arbitrary: fc.constantFrom({ origin: "https://evil.example" }, { origin: "null" }, { referer: "::" }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { "if-none-match": '"nope", *' },
      { "accept-encoding": "br;q=abc, gzip;q=-1, *" },
      { "x-request-id": "../../etc" },
      { "x-forwarded-for": "197.97.145.150" },
      { accept: "text/html" },
    ),
  },
);

/** Header values must be latin-1 without line breaks, or Node refuses to send them at all. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, "?");
}

const INVALID_IDS = [
  "1",
  "-1",
  "0",
  "abc",
  "00000000-0000-0000-0000-00000000000g",
  "00000000000000000000000000000000",
  "%27%20OR%201%3D1--",
  "%00",
  "%E0%A4%A",
  "..%2F..%2Fetc",
  "%3Cscript%3E",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "1.5",
  "9".repeat(40),
  "x".repeat(199),
  "x".repeat(300),
];

/** A path id: an existing one, an unknown UUID, or not a UUID at all. */
function idFor(existing: () => string) {
  return fc.oneof(
    fc.constant(null).map(() => existing()),
    fc.uuid(),
    fc.constantFrom(...INVALID_IDS),
    fc.string({ maxLength: 20 }).map((value) => encodeURIComponent(value)),
  );
}

const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "?a=1&a=2",
      "?__proto__[isAdmin]=true",
      "?constructor[prototype][x]=1",
      "?orderId=%27%20OR%201%3D1",
      `?q=${"x".repeat(3000)}`,
      "?%",
      "?=&=&",
    ),
  },
);

// ---------------------------------------------------------------- the check

/** A short account of a request and its answer, for failure messages. */
function describeExchange(options: InjectOptions, status: number, answer: string): string {
  const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text);
  const payload = options.payload === undefined ? "" : clip(String(options.payload));
  return `${options.method} ${clip(String(options.url))} ${JSON.stringify(options.headers ?? {})} ${payload} -> ${status} ${clip(answer)}`;
}

/**
 * Sends one request and checks the answer: below 500, and every error a JSON `{ message }`.
 * Plain checks, not expect(): this runs 20,000 times and must stay cheap.
 */
async function answersSafely(options: InjectOptions): Promise<void> {
  const response = await inject(options);
  const status = response.statusCode;
  const fail = (problem: string) => {
    throw new Error(`${problem}: ${describeExchange(options, status, response.body)}`);
  };
  if (status >= 500) fail("answered 5xx");
  if (status < 300 || status === 304 || options.method === "HEAD") return;
  if (status < 400) {
    if (!response.headers.location) fail("redirect without a Location");
    return;
  }
  // The PayFast emulator stands in for PayFast's own pages: its refusals are HTML, for a browser.
  if (String(options.url).startsWith("/payfast-emulator/")) return;
  if (!String(response.headers["content-type"]).startsWith("application/json")) fail("error answer is not JSON");
  let body: { message?: unknown } = {};
  try {
    body = JSON.parse(response.body) as { message?: unknown };
  } catch {
    fail("error answer is not valid JSON");
  }
  if (typeof body.message !== "string") fail("error answer has no message");
}

interface BodyRoute {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  url: fc.Arbitrary<string>;
  body: fc.Arbitrary<RawBody>;
  who?: fc.Arbitrary<Who>;
}

function bodyProperty(route: BodyRoute) {
  return fc.asyncProperty(
    route.url,
    route.body,
    route.who ?? who,
    extraHeaders,
    query,
    async (url, body, identity, headers, search) => {
      const cookie = cookieFor(identity);
      await answersSafely({
        method: route.method,
        url: `${url}${search}`,
        headers: {
          ...(body.contentType === undefined ? {} : { "content-type": body.contentType }),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      });
    },
  );
}

/** Checks a property; a failure reports its seed and a short description, not a 100 KB counterexample. */
async function run(property: fc.IAsyncProperty<unknown[]>, numRuns: number) {
  const details = await fc.check(property, { numRuns, endOnFailure: true });
  if (details.failed) {
    const error = details.errorInstance;
    const cause = error instanceof Error ? error.message : String(error ?? "interrupted, or too many skips");
    throw new Error(`property failed (seed ${details.seed}, path "${details.counterexamplePath ?? ""}"): ${cause}`);
  }
}

/** Runs properties side by side (their database waits overlap) and fails with every failure, after all have ended. */
async function runAll(runs: Promise<void>[]) {
  const failures = (await Promise.allSettled(runs)).filter((result) => result.status === "rejected");
  if (failures.length > 0)
    throw new AggregateError(
      failures.map((failure) => failure.reason),
      failures.map((failure) => String(failure.reason)).join("\n\n"),
    );
}

// ---------------------------------------------------------------- the routes

/**
 * How many generated requests each route gets: over 20,000 in all, most on routes that answer in
 * a millisecond or two, few on the argon2 routes (register and login cost ~50 ms of CPU each).
 */
const RUNS = {
  reads: 3_000,
  unknownPaths: 5_200,
  categoryCreate: 1_000,
  categoryEdit: 700,
  productCreate: 1_400,
  productEdit: 1_000,
  orderStatus: 700,
  confirmPayment: 300,
  adminCancel: 200,
  refund: 200,
  returnDecline: 200,
  recordRefund: 200,
  adminRights: 100,
  categoryDelete: 200,
  productDelete: 200,
  createOrder: 3_000,
  createReturn: 300,
  profile: 700,
  register: 150,
  login: 150,
  logout: 400,
  stockAlert: 300,
  stockAlertLink: 200,
  itn: 1_500,
  emulator: 500,
};
const TOTAL_RUNS = Object.values(RUNS).reduce((sum, runs) => sum + runs, 0);

const adminMostly = fc.constantFrom<Who>("admin", "admin", "admin", "admin", "customer", "guest", "stale");

describe("hostile input", () => {
  it("plans at least 20,000 generated requests", () => {
    expect(TOTAL_RUNS).toBeGreaterThanOrEqual(20_000);
  });

  it("answers hostile reads, odd methods and unknown paths below 500, with a JSON message for every error", async () => {
    const before = sent;
    const readPaths = fc.oneof(
      fc.constantFrom(
        "/api/health",
        "/api/health/live",
        "/api/health/ready",
        "/api/products",
        "/api/categories",
        "/api/auth/me",
        "/api/admin/categories",
        "/api/admin/orders",
        "/api/admin/orders/preparing",
        "/api/admin/orders/summary",
        "/api/admin/orders.csv",
        "/api/admin/users",
        "/api/admin/packing-slips.pdf",
        "/api/admin/audit",
        "/api/admin/dashboard",
        "/api/admin/returns",
        "/api/admin/returns/register.csv",
        "/api/returns",
      ),
      fc.string({ maxLength: 20 }).map((date) => `/api/admin/packing-slips.pdf?date=${encodeURIComponent(date)}`),
      fc
        .tuple(
          fc.constantFrom("/api/admin/vat-report", "/api/admin/vat-report.csv"),
          fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("2026-02", "2018-03", "9999-12", "2026-00", "%00")),
          fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("1", "2", "0", "3", "-1", "1e9", "NaN")),
        )
        .map(([path, from, months]) => `${path}?from=${encodeURIComponent(from)}&months=${encodeURIComponent(months)}`),
      fc
        .tuple(
          fc.constantFrom("/api/admin/delivery-costs", "/api/admin/delivery-costs.csv"),
          fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("2026-02", "0000-01", "9999-12", "2026-00", "%00")),
          fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("2026-01", "2027-02", "2026-13", "-1", "1e9")),
        )
        .map(([path, from, to]) => `${path}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
      fc
        .tuple(
          fc.constantFrom("/api/admin/orders", "/api/admin/orders/preparing", "/api/admin/orders.csv"),
          fc.constantFrom("limit", "cursor", "status", "from", "to", "q"),
          fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("0", "-1", "1e9", "2025-02-30", "%00", "#", "%25_")),
        )
        .map(([path, name, value]) => `${path}?${name}=${encodeURIComponent(value)}`),
      idFor(() => fixtures.orderId).map((id) => `/api/admin/orders/${id}`),
      idFor(() => fixtures.orderId).map((id) => `/api/orders/${id}`),
      idFor(() => fixtures.orderId).map((id) => `/api/orders/${id}/invoice.pdf`),
      fc
        .tuple(
          idFor(() => fixtures.orderId),
          idFor(() => fixtures.orderId),
        )
        .map(([id, refundId]) => `/api/orders/${id}/refunds/${refundId}/credit-note.pdf`),
      idFor(() => customer.id).map((id) => `/api/admin/users/${id}`),
      idFor(() => customer.id).map((id) => `/api/admin/users/${id}/orders`),
      idFor(() => customer.id).map((id) => `/api/users/${id}/orders`),
    );
    const unknownPaths = fc.oneof(
      fc.constantFrom(
        "/api",
        "/api/",
        "/api/products/",
        "/api/products/1",
        "/api//products",
        "/api/admin",
        "/api/admin/",
        "/api/admin/nothing",
        "/api/auth/../admin/users",
        "/api/%2e%2e/admin/users",
        "/api/products%00",
        "/api/%E0%A4%A",
        "/api/payfast",
        "/payfast-emulator/eng/nothing",
        "/nothing-here",
        "/%E0%A4%A",
        `/api/${"a/".repeat(400)}`,
      ),
      fc.string({ maxLength: 40 }).map((tail) => `/api/${encodeURIComponent(tail)}`),
      fc
        .array(
          fc.oneof(
            fc.constantFrom("..", ".", "", "%2e%2e", "admin", "products", "orders", "%00", "~", "*", ";", "%2F"),
            fc.string({ maxLength: 10 }).map((segment) => encodeURIComponent(segment)),
          ),
          { maxLength: 6 },
        )
        .map((segments) => `/api/${segments.join("/")}`),
    );
    const methods = fc.constantFrom("GET", "HEAD", "OPTIONS", "DELETE", "POST", "PUT", "PATCH", "TRACE", "SEARCH");

    await runAll([
      run(
        fc.asyncProperty(readPaths, who, extraHeaders, query, async (url, identity, headers, search) => {
          const cookie = cookieFor(identity);
          await answersSafely({
            method: "GET",
            url: `${url}${search}`,
            headers: { ...(cookie ? { cookie } : {}), ...headers },
          });
        }),
        RUNS.reads,
      ),
      run(
        fc.asyncProperty(methods, unknownPaths, mostlyGuest, query, async (method, url, identity, search) => {
          const cookie = cookieFor(identity);
          const withBody = method === "POST" || method === "PUT" || method === "PATCH";
          await answersSafely({
            method: method as InjectOptions["method"],
            url: `${url}${search}`,
            headers: { ...(cookie ? { cookie } : {}), ...(withBody ? { "content-type": "application/json" } : {}) },
            ...(withBody ? { payload: '{"a":1}' } : {}),
          });
        }),
        RUNS.unknownPaths,
      ),
    ]);
    expect(sent - before).toBe(RUNS.reads + RUNS.unknownPaths);
  }, 120_000);

  it("answers hostile bodies to the admin routes, past the admin guard, below 500 with a JSON message", async () => {
    const before = sent;
    const categoryPath = idFor(() => fixtures.categoryId).map((id) => `/api/admin/categories/${id}`);
    const productPath = idFor(() => fixtures.productId).map((id) => `/api/admin/products/${id}`);
    const orderPath = idFor(() => fixtures.orderId).map((id) => `/api/admin/orders/${id}`);
    const noBody = jsonBody(() => ({}));
    await runAll([
      run(
        bodyProperty({
          method: "POST",
          url: fc.constant("/api/admin/categories"),
          body: jsonBody(validBodies.category),
          who: adminMostly,
        }),
        RUNS.categoryCreate,
      ),
      run(
        bodyProperty({ method: "PUT", url: categoryPath, body: jsonBody(validBodies.category), who: adminMostly }),
        RUNS.categoryEdit,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: fc.constant("/api/admin/products"),
          body: jsonBody(validBodies.product),
          who: adminMostly,
        }),
        RUNS.productCreate,
      ),
      run(
        bodyProperty({ method: "PUT", url: productPath, body: jsonBody(validBodies.product), who: adminMostly }),
        RUNS.productEdit,
      ),
      run(
        bodyProperty({
          method: "PATCH",
          url: orderPath.map((path) => `${path}/status`),
          body: jsonBody(validBodies.status),
          who: adminMostly,
        }),
        RUNS.orderStatus,
      ),
      run(
        bodyProperty({
          method: "PATCH",
          url: orderPath.map((path) => `${path}/confirm-payment`),
          body: noBody,
          who: adminMostly,
        }),
        RUNS.confirmPayment,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: orderPath.map((path) => `${path}/cancel`),
          body: jsonBody(validBodies.cancel),
          who: adminMostly,
        }),
        RUNS.adminCancel,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: orderPath.map((path) => `${path}/refund`),
          body: jsonBody(validBodies.refund),
          who: adminMostly,
        }),
        RUNS.refund,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: idFor(() => fixtures.orderId).map((id) => `/api/admin/returns/${id}/decline`),
          body: jsonBody(validBodies.returnDecline),
          who: adminMostly,
        }),
        RUNS.returnDecline,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: orderPath.map((path) => `${path}/refunds/record`),
          body: jsonBody(validBodies.recordRefund),
          who: adminMostly,
        }),
        RUNS.recordRefund,
      ),
      run(
        // The run's own admin: a valid body asks to remove their own rights (409) or keeps them; no one else gains any.
        bodyProperty({
          method: "PATCH",
          url: idFor(() => admin.id).map((id) => `/api/admin/users/${id}`),
          body: jsonBody(validBodies.adminRights),
          who: adminMostly,
        }),
        RUNS.adminRights,
      ),
    ]);
    // Deletes last, so the edits above had the fixtures to edit.
    await runAll([
      run(bodyProperty({ method: "DELETE", url: categoryPath, body: noBody, who: adminMostly }), RUNS.categoryDelete),
      run(bodyProperty({ method: "DELETE", url: productPath, body: noBody, who: adminMostly }), RUNS.productDelete),
    ]);
    expect(sent - before).toBe(
      RUNS.categoryCreate +
        RUNS.categoryEdit +
        RUNS.productCreate +
        RUNS.productEdit +
        RUNS.orderStatus +
        RUNS.confirmPayment +
        RUNS.adminCancel +
        RUNS.refund +
        RUNS.returnDecline +
        RUNS.recordRefund +
        RUNS.adminRights +
        RUNS.categoryDelete +
        RUNS.productDelete,
    );
  }, 120_000);

  it("answers hostile orders, profiles and sign-ins below 500 with a JSON message", async () => {
    const before = sent;
    await runAll([
      run(
        bodyProperty({
          method: "POST",
          url: fc.constant("/api/create-order"),
          body: jsonBody(validBodies.order),
          // The body is validated before the session is asked for; a customer takes valid shapes to the database.
          who: fc.constantFrom<Who>("guest", "guest", "customer", "customer", "admin", "stale"),
        }),
        RUNS.createOrder,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: idFor(() => fixtures.orderId).map((id) => `/api/orders/${id}/returns`),
          body: jsonBody(validBodies.returnRequest),
          who: fc.constantFrom<Who>("customer", "customer", "admin", "guest", "stale"),
        }),
        RUNS.createReturn,
      ),
      run(
        bodyProperty({
          method: "PUT",
          url: idFor(() => spare.id).map((id) => `/api/users/${id}`),
          body: jsonBody(validBodies.profile),
          who: fc.constantFrom<Who>("customer", "admin", "guest", "stale"),
        }),
        RUNS.profile,
      ),
      run(
        bodyProperty({ method: "POST", url: fc.constant("/api/auth/register"), body: jsonBody(validBodies.register) }),
        RUNS.register,
      ),
      run(
        bodyProperty({ method: "POST", url: fc.constant("/api/auth/login"), body: jsonBody(validBodies.login) }),
        RUNS.login,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: fc.constant("/api/stock-alerts"),
          body: jsonBody(validBodies.stockAlert),
          who: fc.constantFrom<Who>("guest", "guest", "customer", "admin", "stale"),
        }),
        RUNS.stockAlert,
      ),
      run(
        bodyProperty({
          method: "POST",
          url: fc.constantFrom("/api/stock-alerts/confirm", "/api/stock-alerts/unsubscribe"),
          body: jsonBody(validBodies.stockAlertLink),
          who: fc.constantFrom<Who>("guest", "customer", "stale"),
        }),
        RUNS.stockAlertLink,
      ),
      // Never the run's admin or customer session: logging them out would end the run's identities.
      run(
        bodyProperty({
          method: "POST",
          url: fc.constant("/api/auth/logout"),
          body: jsonBody(() => ({})),
          who: fc.constantFrom<Who>("guest", "forged", "stale"),
        }),
        RUNS.logout,
      ),
    ]);
    expect(sent - before).toBe(
      RUNS.createOrder +
        RUNS.createReturn +
        RUNS.profile +
        RUNS.register +
        RUNS.login +
        RUNS.logout +
        RUNS.stockAlert +
        RUNS.stockAlertLink,
    );
  }, 120_000);

  it("answers hostile ITNs and PayFast emulator forms below 500", async () => {
    const before = sent;
    const itnFields = () => [
      ["m_payment_id", fixtures.orderId],
      ["pf_payment_id", "1579137"],
      ["payment_status", "COMPLETE"],
      ["item_name", "Snug & Dry order"],
      ["item_description", ""],
      ["amount_gross", fixtures.orderTotal],
      ["amount_fee", "-2.30"],
      ["amount_net", "12.70"],
      ["custom_str1", ""],
      ["name_first", "Thandi"],
      ["name_last", "Mokoena"],
      ["email_address", "shopper@example.co.za"],
      ["merchant_id", "10000100"],
    ];
    const text = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "undefined"));
    const itnBody = fc
      .tuple(
        mutated(itnFields),
        fc.constantFrom("sign", "sign", "sign", "no signature", "wrong signature"),
        fc.constantFrom(
          "application/x-www-form-urlencoded",
          "application/x-www-form-urlencoded",
          "application/json",
          "text/plain",
        ),
      )
      .map(([fields, signing, contentType]): RawBody => {
        const pairs: [string, string][] = Array.isArray(fields)
          ? Array.from(fields, (pair): [string, string] =>
              Array.isArray(pair) ? [text(pair[0]), text(pair[1])] : ["x", text(pair)],
            )
          : [["body", text(fields)]];
        // Signed with the sandbox passphrase, so the checks past the signature run too.
        const payload =
          signing === "sign"
            ? signItnFields(pairs, "jt7NOE43FZPn")
            : `${new URLSearchParams(pairs).toString()}${signing === "wrong signature" ? "&signature=0123456789abcdef0123456789abcdef" : ""}`;
        return { payload, contentType };
      });
    const forms = fc.oneof(
      { weight: 6, arbitrary: itnBody },
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: "binary", maxLength: 200 })
          .map((payload) => ({ payload, contentType: "application/x-www-form-urlencoded" })),
      },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT + 20_000 })
          .map((size) => ({ payload: `a=${"x".repeat(size)}`, contentType: "application/x-www-form-urlencoded" })),
      },
      { weight: 2, arbitrary: jsonBody(() => ({})) },
    );
    const emulatorPaths = fc.constantFrom(
      "/payfast-emulator/eng/process",
      "/payfast-emulator/eng/complete",
      "/payfast-emulator/eng/complete-lost",
      "/payfast-emulator/eng/cancel",
      "/payfast-emulator/eng/query/validate",
    );
    await runAll([
      run(
        bodyProperty({
          method: "POST",
          url: fc.constant("/api/payfast/notify"),
          body: forms,
          who: fc.constant("guest"),
        }),
        RUNS.itn,
      ),
      run(bodyProperty({ method: "POST", url: emulatorPaths, body: forms, who: fc.constant("guest") }), RUNS.emulator),
    ]);
    expect(sent - before).toBe(RUNS.itn + RUNS.emulator);
  }, 120_000);

  // Regressions found by the properties above: PostgreSQL refuses NUL in text, and these answered 500.
  it("answers 400 with a message, never 500, to text holding a NUL character on every route that stores or looks up text", async () => {
    const nul = "a\u0000b";
    const cases: { method: "POST" | "PUT"; url: string; cookie?: string; payload: Record<string, unknown> }[] = [
      {
        method: "POST",
        url: "/api/auth/register",
        payload: {
          ...validBodies.register(),
          username: `nul_${Date.now()}`,
          email: `nul_${Date.now()}@example.co.za`,
          fullName: nul,
        },
      },
      { method: "POST", url: "/api/auth/login", payload: { username: nul, password: "whatever password" } },
      {
        method: "PUT",
        url: `/api/users/${spare.id}`,
        cookie: spare.cookie,
        payload: { ...validBodies.profile(), fullName: nul },
      },
      { method: "POST", url: "/api/admin/categories", cookie: admin.cookie, payload: { name: nul } },
      {
        method: "POST",
        url: "/api/admin/products",
        cookie: admin.cookie,
        payload: { ...validBodies.product(), name: nul },
      },
      {
        method: "POST",
        url: "/api/admin/products",
        cookie: admin.cookie,
        payload: { ...validBodies.product(), sizes: [nul] },
      },
      {
        method: "POST",
        url: "/api/admin/products",
        cookie: admin.cookie,
        payload: { ...validBodies.product(), category: nul },
      },
      {
        method: "POST",
        url: "/api/create-order",
        cookie: customer.cookie,
        payload: { ...validOrder(), customerEmail: `${nul}@example.co.za` },
      },
    ];
    for (const { method, url, cookie, payload } of cases) {
      const response = await inject({ method, url, headers: cookie ? { cookie } : {}, payload });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String), code: expect.any(String) });
    }
  });

  it("is still healthy after all of it, with its sessions and catalogue intact", async () => {
    expect(sent).toBeGreaterThanOrEqual(20_000);
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: admin.cookie } });
    expect(me.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/products" })).statusCode).toBe(200);
    // Nothing a hostile body said made anyone an admin.
    const { rows } = await t.pool.query<{ count: number }>("select count(*)::int as count from users where is_admin");
    expect(rows[0]?.count).toBe(1);
  });
});
