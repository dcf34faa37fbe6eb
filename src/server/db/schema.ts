import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    fullName: text("full_name").notNull(),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull().default(""),
    city: text("city").notNull().default(""),
    zipCode: text("zip_code").notNull().default(""),
    isAdmin: boolean("is_admin").notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("users_username_lower_key").on(sql`lower(${table.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${table.email})`),
  ],
);

/** Server-side sessions: the cookie carries a random token, the table keeps only its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/** Fixed-window counters shared by every app instance (login and register rate limits). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true, mode: "date" }).notNull(),
});

export const categories = pgTable(
  "categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lower-case: products carry the category's name on the wire (SPEC.md section 3). */
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("categories_name_lower_key").on(sql`lower(${table.name})`)],
);

export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    priceCents: integer("price_cents").notNull(),
    image: text("image").notNull(),
    description: text("description").notNull().default(""),
    sizes: jsonb("sizes").$type<string[]>().notNull().default([]),
    sizeImages: jsonb("size_images").$type<Record<string, string>>().notNull().default({}),
    sizeOutOfStock: jsonb("size_out_of_stock").$type<Record<string, boolean>>().notNull().default({}),
    outOfStock: boolean("out_of_stock").notNull().default(false),
    promoText: text("promo_text"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("products_category_id_idx").on(table.categoryId),
    check("products_price_positive", sql`${table.priceCents} > 0`),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: ["pending", "completed", "processed"] })
      .notNull()
      .default("pending"),
    subtotalCents: integer("subtotal_cents").notNull(),
    deliveryFeeCents: integer("delivery_fee_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    customerEmail: text("customer_email").notNull(),
    deliveryName: text("delivery_name").notNull(),
    deliveryPhone: text("delivery_phone").notNull(),
    deliveryAddress: text("delivery_address").notNull(),
    deliveryCity: text("delivery_city").notNull(),
    deliveryProvince: text("delivery_province").notNull(),
    deliveryZipCode: text("delivery_zip_code").notNull(),
    /** How the order became paid: "itn" (PayFast proved it) or "admin" (confirmed by hand). */
    paidBy: text("paid_by", { enum: ["itn", "admin"] }),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    shippedAt: timestamp("shipped_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("orders_user_id_created_idx").on(table.userId, table.createdAt),
    index("orders_status_idx").on(table.status),
    index("orders_created_at_idx").on(table.createdAt),
    check("orders_status_known", sql`${table.status} in ('pending', 'completed', 'processed')`),
  ],
);

/** Order lines keep name, size and price, so deleting a product never breaks an order. */
export const orderItems = pgTable(
  "order_items",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    size: text("size").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
  },
  (table) => [
    index("order_items_order_id_idx").on(table.orderId),
    index("order_items_product_id_idx").on(table.productId),
  ],
);

/** Every ITN received, with its outcome: the audit trail behind every paid order. */
export const payfastItns = pgTable(
  "payfast_itns",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    orderId: uuid("order_id"),
    pfPaymentId: text("pf_payment_id"),
    paymentStatus: text("payment_status"),
    amountGross: text("amount_gross"),
    sourceIp: text("source_ip").notNull(),
    outcome: text("outcome", { enum: ["accepted", "duplicate", "ignored", "rejected"] }).notNull(),
    reason: text("reason"),
    rawBody: text("raw_body").notNull(),
  },
  (table) => [
    index("payfast_itns_order_id_idx").on(table.orderId),
    uniqueIndex("payfast_itns_accepted_payment_key").on(table.pfPaymentId).where(sql`${table.outcome} = 'accepted'`),
  ],
);

/** Notifications the local PayFast emulator sent, so its validate endpoint answers VALID only for them. */
export const payfastEmulatorNotifications = pgTable("payfast_emulator_notifications", {
  paramHash: text("param_hash").primaryKey(),
  createdAt: createdAt(),
});
