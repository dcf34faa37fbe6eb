import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type OrderStatus, UNPAID_STATUSES } from "#domain/order-status.js";
import { deliveryFeeCents } from "#domain/pricing.js";
import { orderItems, orders, products } from "#server/platform/db/schema.js";
import type { TestApp } from "./app.js";
import { confirmWithPassword } from "./users.js";

export interface SignedIn {
  id: string;
  username: string;
  email: string;
  password: string;
  /** The `cookie` request header carrying the session. */
  cookie: string;
}

/** Registers and logs in a user through the real auth routes; `admin` flips is_admin in the database first. */
export async function signIn(t: TestApp, { admin = false } = {}): Promise<SignedIn> {
  const tag = randomBytes(4).toString("hex");
  const username = `${admin ? "admin" : "customer"}_${tag}`;
  const email = `${username}@example.co.za`;
  const password = `pw-${randomBytes(8).toString("hex")}`;

  const registered = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { username, email, password, fullName: `Test ${username}` },
  });
  if (registered.statusCode >= 300) {
    throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
  }
  const { id } = registered.json() as { id: string };
  if (admin) await t.pool.query("update users set is_admin = true where id = $1", [id]);

  const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const name = t.app.config.session.cookieName;
  const sid = login.cookies.find((cookie) => cookie.name === name);
  if (!sid) throw new Error(`login answered no ${name} cookie`);
  // An admin confirms the session with the password, as at their first refund (money moves are stepped up).
  if (admin) await confirmWithPassword(t, `${name}=${sid.value}`, password);
  return { id, username, email, password, cookie: `${name}=${sid.value}` };
}

export const signInAsAdmin = (t: TestApp) => signIn(t, { admin: true });

export interface TestOrderLine {
  productId?: string | null;
  name: string;
  size: string;
  quantity: number;
  unitPriceCents: number;
  /** Standard-rated at 15% unless said. */
  vatClass?: "standard" | "zero";
}

/** Puts an order straight into the database (the checkout's own tests cover how orders are made). */
export async function insertOrder(
  t: TestApp,
  {
    status = "pending",
    lines,
    createdAt,
    customerEmail = "shopper@example.co.za",
    deliveryName = "Thandi Mokoena",
    deliveryPhone = "082 555 0101",
    userId = null,
  }: {
    status?: OrderStatus;
    lines?: TestOrderLine[];
    createdAt?: Date;
    customerEmail?: string;
    /** The customer who placed it (none: a guest's order). */
    deliveryName?: string;
    deliveryPhone?: string;
    userId?: string | null;
  } = {},
): Promise<string> {
  const items = lines ?? (await firstProductLine(t));
  const subtotalCents = items.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const feeCents = deliveryFeeCents(subtotalCents);
  return t.db.transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        status,
        userId,
        subtotalCents,
        deliveryFeeCents: feeCents,
        totalCents: subtotalCents + feeCents,
        customerEmail,
        deliveryName,
        deliveryPhone,
        deliveryAddress: "12 Jacaranda Street",
        deliveryCity: "Pretoria",
        deliveryProvince: "Gauteng",
        deliveryZipCode: "0181",
        deliveryVatRateBp: 1500,
        paidAt: UNPAID_STATUSES.includes(status) ? null : sql`now()`,
        paidBy: UNPAID_STATUSES.includes(status) ? null : "itn",
        ...(createdAt ? { createdAt } : {}),
      })
      .returning({ id: orders.id });
    if (!order) throw new Error("order insert returned nothing");
    await tx.insert(orderItems).values(
      items.map((line, position) => ({
        orderId: order.id,
        productId: line.productId ?? null,
        position,
        name: line.name,
        size: line.size,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        vatClass: line.vatClass ?? "standard",
        vatRateBp: line.vatClass === "zero" ? 0 : 1500,
      })),
    );
    return order.id;
  });
}

async function firstProductLine(t: TestApp): Promise<TestOrderLine[]> {
  const [product] = await t.db.select().from(products).orderBy(products.name).limit(1);
  if (!product) throw new Error("no seeded product");
  return [
    {
      productId: product.id,
      name: product.name,
      size: product.sizes[0] ?? "One size",
      quantity: 2,
      unitPriceCents: product.priceCents,
    },
  ];
}

export async function orderStatus(t: TestApp, id: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.id, id));
  return row;
}
