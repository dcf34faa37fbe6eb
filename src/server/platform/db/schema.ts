import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { CONSENT_CHANNELS, CONSENT_SOURCES } from "../../../domain/consent.js";
import { DELIVERY_SERVICES, PRICE_SOURCES } from "../../../domain/delivery.js";
import type { MultibuyTier } from "../../../domain/multibuy.js";
import { CANCEL_REASONS, ORDER_STATUSES } from "../../../domain/order-status.js";
import type { PackedSize } from "../../../domain/parcels.js";
import { PLAN_CHARGE_STATUSES, PLAN_MODES, PLAN_STATUSES } from "../../../domain/plans.js";
import { POLICY_KINDS } from "../../../domain/policies.js";
import { PROMO_KINDS } from "../../../domain/promo.js";
import { REFUND_BASES } from "../../../domain/refund-lines.js";
import { RECEIPT_BASES, RETURN_REASONS, RETURN_STATUSES } from "../../../domain/returns.js";
import {
  EMAIL_KIND_NAMES,
  EMAIL_STATUS_NAMES,
  type EmailKindName,
  type EmailStatusName,
} from "../../../domain/schemas/emails.js";
import { REFUND_STATUS_NAMES } from "../../../domain/schemas/orders.js";
import { ITN_ATTENTION_OUTCOMES, ITN_FLAGGED_OUTCOMES, ITN_OUTCOMES } from "../../../domain/schemas/payments.js";
import { FIT_MEASURES, type FitRange } from "../../../domain/size-fit.js";
import { ORDER_STOCK_STATES } from "../../../domain/stock.js";
import { SHIPMENT_STATES } from "../../../domain/tracking.js";
import { VAT_CLASSES, VAT_ROUNDINGS } from "../../../domain/vat.js";

/** A PostgreSQL int4multirange, read as its text ("{[1000,9001),[20000,25001)}"); only the database reads it. */
const int4multirange = customType<{ data: string; driverData: string }>({ dataType: () => "int4multirange" });

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

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
    /** The rest of the delivery address the profile keeps to pre-fill checkout (src/domain/schemas/address.ts). */
    altPhone: text("alt_phone").notNull().default(""),
    complex: text("complex").notNull().default(""),
    suburb: text("suburb").notNull().default(""),
    province: text("province").notNull().default(""),
    deliveryInstructions: text("delivery_instructions").notNull().default(""),
    isAdmin: boolean("is_admin").notNull().default(false),
    /** Set by an admin: the account cannot log in, and its sessions and holds ended then (users/admin-routes.ts). */
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
    /**
     * When the account proved the address is theirs (followed a link mailed to it): only then may
     * a message greet them by the name they typed (mail/templates/free-text.ts).
     */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, mode: "date" }),
    /**
     * An admin's second factor (auth/two-factor.ts): the TOTP secret once enrolment is confirmed
     * with a code, the one being set up until then (both sealed with TOTP_ENCRYPTION_KEY, never
     * plain: auth/totp-secrets.ts), and the last time step a code was accepted at (a code is never
     * accepted twice).
     */
    totpSecret: text("totp_secret"),
    totpPendingSecret: text("totp_pending_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true, mode: "date" }),
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** Wrong codes since the last right one; the 10th locks the authenticator codes until totp_locked_until. */
    totpFailures: integer("totp_failures").notNull().default(0),
    totpLockedUntil: timestamp("totp_locked_until", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    /**
     * When the customer closed the account (src/server/privacy/close-account.ts): the row stays so
     * that their orders and invoices keep their owner, with every personal field replaced.
     */
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("users_username_lower_key").on(sql`lower(${table.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${table.email})`),
    // The admin's Users tab: newest first, in keyset pages.
    index("users_created_at_id_idx").on(table.createdAt, table.id),
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
    /** What the owner sees in their list of sessions: the browser's User-Agent (cut) and the address at login. */
    userAgent: text("user_agent").notNull().default(""),
    ip: text("ip").notNull().default(""),
    /** When this session last gave a second-factor code (login or step-up): refunds and the like want it fresh. */
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true, mode: "date" }),
    /**
     * When an admin with no second factor (ADMIN_2FA=optional) last confirmed a step-up action with
     * their password. Never counts for an admin who has a second factor: they give a code.
     */
    passwordConfirmedAt: timestamp("password_confirmed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/**
 * How many unpaid orders each holder has: `user:<id>` and `net:<client network>`. Kept by triggers
 * on orders (hand-written in migration 0009), locked by create-order's statement while it checks
 * the caps (orders/place-order.ts), so concurrent orders from one holder never pass a cap.
 */
export const orderHolders = pgTable(
  "order_holders",
  {
    key: text("key").primaryKey(),
    unpaid: integer("unpaid").notNull().default(0),
  },
  (table) => [check("order_holders_unpaid_not_negative", sql`${table.unpaid} >= 0`)],
);

/** An admin's one-time recovery codes: only their SHA-256, each used once (auth/two-factor.ts). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("recovery_codes_user_code_key").on(table.userId, table.codeHash)],
);

/**
 * A change of address waiting for its link (auth/email-change.ts): the new address takes effect
 * only once the link mailed to it is followed. Only the token's SHA-256 is kept.
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("email_changes_user_idx").on(table.userId),
    uniqueIndex("email_changes_token_key").on(table.tokenHash),
  ],
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
    /** Lower-case: products carry the category's name on the wire (docs/product.md §3). */
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
    /**
     * Each size's price in cents (docs/decisions/022-prices-per-size.md); a size missing here costs
     * `price_cents`, which the server keeps at the lowest size price (the card's "from").
     */
    sizePrices: jsonb("size_prices").$type<Record<string, number>>().notNull().default({}),
    /** Units in each size's pack (nappies, pads, wipes); a size missing here has no per-unit price. */
    sizePackCounts: jsonb("size_pack_counts").$type<Record<string, number>>().notNull().default({}),
    /** The unit's word, singular: "nappy", "pad", "wipe" ("R3.12 per nappy"); null: "unit". */
    packUnit: text("pack_unit"),
    /**
     * Each size's pack as it goes into a box: grams and millimetres (docs/decisions/051); a size
     * missing here packs as DEFAULT_PACKED_SIZE (src/domain/parcels.ts).
     */
    sizeParcels: jsonb("size_parcels").$type<Record<string, PackedSize>>().notNull().default({}),
    promoText: text("promo_text"),
    /** The most packs of one size an order may take (20; more for bulk items), against hoarding. */
    maxPerOrder: integer("max_per_order").notNull().default(20),
    /**
     * What its sizes' ranges measure (src/domain/size-fit.ts): "weight" (grams, baby and kids
     * products) or "waist" (centimetres, adult products); null: no size guide.
     */
    fitMeasure: text("fit_measure", { enum: FIT_MEASURES }),
    /** Each size's range of `fit_measure`, both ends included; a size missing here has none. */
    sizeFits: jsonb("size_fits").$type<Record<string, FitRange>>().notNull().default({}),
    /** Absorbency 1-6 (src/domain/absorbency.ts), for adult and period products; null: not said. */
    absorbency: smallint("absorbency"),
    /**
     * Shop by size's weight filter (docs/decisions/048-shop-by-size.md): the grams some listed size
     * fits, the union of its weight ranges (empty for a product not sized by weight). Kept by
     * PostgreSQL from the row (SQL function product_fit_grams, hand-written in its migration), so
     * every write keeps it right; a GiST index serves `fit_grams @> grams`.
     */
    fitGrams: int4multirange("fit_grams").generatedAlwaysAs(sql`product_fit_grams(fit_measure, size_fits, sizes)`),
    /** Multi-buy tiers (src/domain/multibuy.ts), ascending by min_packs; empty: none. */
    multibuyTiers: jsonb("multibuy_tiers").$type<MultibuyTier[]>().notNull().default([]),
    /**
     * Off each unit in a nappy plan, in basis points (docs/decisions/050-nappy-plans.md); null: the
     * owner's default for all, DEFAULT_PLAN_SAVING_BP in src/domain/plans.ts (5%).
     */
    planSavingBp: integer("plan_saving_bp"),
    /**
     * The product's address, /products/{slug} (docs/decisions/012-server-rendering.md): made from
     * the name by the server (src/domain/slug.ts) on create and rename. The default only keeps a
     * row written by plain SQL addressable.
     */
    slug: text("slug").notNull().default(sql`gen_random_uuid()::text`),
    /** "zero" for sanitary pads and pantyliners (VAT Act Schedule 2 Part C), "standard" for the rest. */
    vatClass: text("vat_class", { enum: VAT_CLASSES }).notNull().default("standard"),
    /**
     * The storefront's "Price per unit" sort key: the lowest price per unit of any size, in cents
     * (src/domain/packs.ts lowestPerUnitCents), null without pack counts. Kept by PostgreSQL from
     * the row (SQL function product_unit_cents, hand-written in its migration), so every write,
     * plain SQL included, keeps it right (docs/decisions/026-pages-that-stay-small.md).
     */
    unitCents: integer("unit_cents").generatedAlwaysAs(
      sql`product_unit_cents(sizes, size_prices, size_pack_counts, price_cents)`,
    ),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("products_category_id_idx").on(table.categoryId),
    // The storefront's keyset pages (src/server/catalog/search.ts): each sort's key, then the tiebreaks.
    index("products_name_id_idx").on(sql`lower(${table.name})`, table.id),
    index("products_category_name_id_idx").on(table.categoryId, sql`lower(${table.name})`, table.id),
    index("products_price_name_id_idx").on(table.priceCents, sql`lower(${table.name})`, table.id),
    index("products_fit_grams_idx").using("gist", table.fitGrams),
    uniqueIndex("products_slug_key").on(table.slug),
    check("products_price_positive", sql`${table.priceCents} > 0`),
    check("products_vat_class_known", sql`${table.vatClass} in ('standard', 'zero')`),
    check("products_max_per_order_range", sql`${table.maxPerOrder} between 1 and 999`),
    check("products_fit_measure_known", sql`${table.fitMeasure} in ('weight', 'waist')`),
    check("products_absorbency_range", sql`${table.absorbency} between 1 and 6`),
    check("products_plan_saving_range", sql`${table.planSavingBp} between 0 and 5000`),
  ],
);

/**
 * VAT rates by class, effective from a South African day (docs/decisions/017-vat-per-line.md): the
 * rate of a class on a day is the row with the latest `effective_from` on or before it, read by
 * the SQL function vat_rate(class, day) (migration 0009) and nothing else. A change of rate is a
 * new row, not a change of code. Rates in basis points (1500 = 15%).
 */
export const vatRates = pgTable(
  "vat_rates",
  {
    vatClass: text("vat_class", { enum: VAT_CLASSES }).notNull(),
    effectiveFrom: date("effective_from", { mode: "string" }).notNull(),
    rateBp: integer("rate_bp").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.vatClass, table.effectiveFrom] }),
    check("vat_rates_class_known", sql`${table.vatClass} in ('standard', 'zero')`),
    check("vat_rates_rate_range", sql`${table.rateBp} between 0 and 10000`),
  ],
);

/** A product's earlier slugs: their addresses answer 301 to the product's current one. */
export const productSlugRedirects = pgTable("product_slug_redirects", {
  slug: text("slug").primaryKey(),
  productId: uuid("product_id")
    .notNull()
    .references(() => products.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

/**
 * Units of each size of a product (docs/product.md §10). `quantity` is what has not been sold yet,
 * the units unpaid orders hold included; `held` is what those orders hold. What can be sold is
 * quantity - held. The checks make overselling impossible whatever the code does: a hold that
 * would take more than there is, or a sale below zero, is refused by the database.
 */
export const productStock = pgTable(
  "product_stock",
  {
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    size: text("size").notNull(),
    quantity: integer("quantity").notNull(),
    held: integer("held").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.size] }),
    check("product_stock_quantity_not_negative", sql`${table.quantity} >= 0`),
    check("product_stock_held_not_negative", sql`${table.held} >= 0`),
    check("product_stock_held_within_quantity", sql`${table.held} <= ${table.quantity}`),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
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
    /** "" on orders placed before the address had them: shown as they are. */
    deliverySuburb: text("delivery_suburb").notNull().default(""),
    deliveryComplex: text("delivery_complex").notNull().default(""),
    deliveryInstructions: text("delivery_instructions").notNull().default(""),
    deliveryAltPhone: text("delivery_alt_phone").notNull().default(""),
    /**
     * How the order became paid: "itn" (PayFast's notification proved it), "reconcile" (PayFast's
     * transaction history proved it when the notification never came) or "admin" (by hand).
     */
    paidBy: text("paid_by", { enum: ["itn", "reconcile", "admin"] }),
    /** The admin who marked it paid by hand (paid_by "admin"); kept when the admin's account goes. */
    paidByUserId: uuid("paid_by_user_id").references(() => users.id, { onDelete: "set null" }),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    /** PayFast's id of the payment that paid this order (refunds and "paid twice" need it). */
    pfPaymentId: text("pf_payment_id"),
    /** The last PENDING or FAILED notification for this order while it waits for payment. */
    payfastStatus: text("payfast_status", { enum: ["PENDING", "FAILED"] }),
    payfastStatusAt: timestamp("payfast_status_at", { withTimezone: true, mode: "date" }),
    /**
     * Set by a PENDING notification (a slow EFT or voucher payment): the order keeps its stock, and
     * is not expired, until then (ORDER_PENDING_HOLD_HOURS). Null: the ordinary hold from created_at.
     */
    holdUntil: timestamp("hold_until", { withTimezone: true, mode: "date" }),
    shippedAt: timestamp("shipped_at", { withTimezone: true, mode: "date" }),
    /** "Mark as delivered" (optional): the cooling-off days count from it (src/domain/returns.ts). */
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    deliveredBy: uuid("delivered_by").references(() => users.id, { onDelete: "set null" }),
    /** Given at Mark as Shipped, both optional: shown in the shipped e-mail and the order history. */
    courier: text("courier"),
    trackingNumber: text("tracking_number"),
    stockState: text("stock_state", { enum: ORDER_STOCK_STATES }).notNull().default("none"),
    /** Why and when the order was cancelled; kept when a late payment revives it. */
    cancelReason: text("cancel_reason", { enum: CANCEL_REASONS }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    /** What the admin wrote when cancelling by hand. */
    cancelNote: text("cancel_note"),
    /** A business buyer's details, given at checkout (both optional); printed on the tax invoice. */
    companyName: text("company_name"),
    vatNumber: text("vat_number"),
    /**
     * The delivery option chosen at checkout (docs/decisions/051): the service, the locker or
     * pickup point (code, name and address as the directory gave them), what the courier quoted,
     * where the price came from, and the locker company's rate revision to echo when booking.
     */
    deliveryService: text("delivery_service", { enum: DELIVERY_SERVICES }).notNull().default("door_economy"),
    deliveryPointCode: text("delivery_point_code"),
    deliveryPointName: text("delivery_point_name"),
    deliveryPointAddress: text("delivery_point_address"),
    deliveryQuotedCents: integer("delivery_quoted_cents"),
    deliveryPriceSource: text("delivery_price_source", { enum: PRICE_SOURCES }).notNull().default("flat"),
    deliveryRateRevisionId: text("delivery_rate_revision_id"),
    deliveryExpectedDay: date("delivery_expected_day", { mode: "string" }),
    /** The client network that placed it (an IPv4 address or an IPv6 /64): the per-address cap on unpaid orders. */
    placedFrom: text("placed_from"),
    /** Given in the transaction that makes the order paid, from the gapless `invoice` counter (INV-000001). */
    invoiceNumber: integer("invoice_number"),
    /** The delivery fee is standard-rated: its rate (basis points) on the day the order was placed. */
    deliveryVatRateBp: integer("delivery_vat_rate_bp").notNull(),
    /**
     * "line": VAT worked out per line (docs/decisions/017); "order": an order placed before, whose
     * documents gave 15/115 of the whole amount, rounded once, and keep doing so.
     */
    vatRounding: text("vat_rounding", { enum: VAT_ROUNDINGS }).notNull().default("line"),
    /** The versions of the terms, return policy and privacy policy in force when it was placed (null before versioning). */
    termsVersionId: integer("terms_version_id").references(() => policyVersions.id),
    returnPolicyVersionId: integer("return_policy_version_id").references(() => policyVersions.id),
    privacyVersionId: integer("privacy_version_id").references(() => policyVersions.id),
    /** The promo code it was placed with (src/server/promo/), as typed in capitals; null without one. */
    promoCode: text("promo_code"),
    /** Off the goods: the sum of its lines' discount_cents. subtotal - discount + delivery fee = total. */
    discountCents: integer("discount_cents").notNull().default(0),
    /** The delivery fee a free-delivery code waived (delivery_fee_cents is then 0). */
    deliveryDiscountCents: integer("delivery_discount_cents").notNull().default(0),
    /** Off the goods by multi-buy tiers: the sum of its lines' multibuy_discount_cents (issue 42). */
    multibuyDiscountCents: integer("multibuy_discount_cents").notNull().default(0),
    createdAt: createdAt(),
    /** When the retention job replaced the delivery details (src/server/privacy/retention.ts). */
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    // The expiry sweep's question: which unpaid orders are older than the hold?
    index("orders_pending_created_idx").on(table.createdAt).where(sql`${table.status} = 'pending'`),
    index("orders_user_id_created_idx").on(table.userId, table.createdAt),
    // The admin's lists page by (created_at, id), newest first, with or without a status
    // (docs/decisions/010-keyset-paging-and-trigram-search.md). The search's trigram index is
    // hand-written in migration 0007 (ORDER_SEARCH_TEXT in orders/admin-queries.ts is its expression).
    // Scanned backwards, ascending indexes serve ORDER BY created_at DESC, id DESC.
    index("orders_created_id_idx").on(table.createdAt, table.id),
    index("orders_status_created_id_idx").on(table.status, table.createdAt, table.id),
    uniqueIndex("orders_pf_payment_id_key").on(table.pfPaymentId).where(sql`${table.pfPaymentId} is not null`),
    check(
      "orders_status_known",
      sql`${table.status} in ('pending', 'completed', 'processed', 'cancelled', 'refunded')`,
    ),
    uniqueIndex("orders_invoice_number_key").on(table.invoiceNumber),
  ],
);

/**
 * Every published version of the owner's policies (content/policies/*.md, src/server/policies/):
 * a new one whenever a file's text, its placeholders filled in, hashes differently from the latest.
 * Never updated or deleted: orders point at the versions they were placed under.
 */
export const policyVersions = pgTable(
  "policy_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: POLICY_KINDS }).notNull(),
    /** 1, 2, 3... per kind: the address /{kind}/v/{version}. */
    version: integer("version").notNull(),
    title: text("title").notNull(),
    effectiveDate: date("effective_date", { mode: "string" }).notNull(),
    /** SHA-256 of the Markdown as published (front matter and filled-in placeholders included). */
    contentHash: text("content_hash").notNull(),
    /** The Markdown as published, placeholders filled in: rendered on request. */
    body: text("body").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("policy_versions_kind_version_key").on(table.kind, table.version)],
);

/** Order lines keep name, size, price and VAT rate, so deleting a product never breaks an order. */
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
    /** The product's VAT class and its rate (basis points) when the order was placed: documents read these, never today's. */
    vatClass: text("vat_class", { enum: VAT_CLASSES }).notNull(),
    vatRateBp: integer("vat_rate_bp").notNull(),
    /** This line's share of a promo discount (largest remainder, src/domain/promo.ts): it was sold for its amount less this. */
    discountCents: integer("discount_cents").notNull().default(0),
    /** This line's share of the product's multi-buy saving (src/domain/multibuy.ts), off its amount like a promo's. */
    multibuyDiscountCents: integer("multibuy_discount_cents").notNull().default(0),
  },
  (table) => [
    index("order_items_order_id_idx").on(table.orderId),
    check(
      "order_items_discount_within_amount",
      sql`${table.discountCents} between 0 and ${table.unitPriceCents} * ${table.quantity}`,
    ),
    check(
      "order_items_discounts_within_amount",
      sql`${table.multibuyDiscountCents} >= 0 and ${table.discountCents} + ${table.multibuyDiscountCents} <= ${table.unitPriceCents} * ${table.quantity}`,
    ),
    index("order_items_product_id_idx").on(table.productId),
    check("order_items_vat_class_known", sql`${table.vatClass} in ('standard', 'zero')`),
  ],
);

/** Outcomes that book a pf_payment_id once and for all: the same id again is a duplicate. */
const BOOKED_OUTCOMES = sql.raw(["accepted", ...ITN_FLAGGED_OUTCOMES].map((outcome) => `'${outcome}'`).join(", "));

const ATTENTION_OUTCOMES = sql.raw(ITN_ATTENTION_OUTCOMES.map((outcome) => `'${outcome}'`).join(", "));

/** Every PayFast notification received, and every payment reconciliation found: the audit trail behind every paid order. */
export const payfastItns = pgTable(
  "payfast_itns",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** "itn" (PayFast posted it) or "reconcile" (found in PayFast's transaction history). */
    via: text("via", { enum: ["itn", "reconcile"] })
      .notNull()
      .default("itn"),
    orderId: uuid("order_id"),
    pfPaymentId: text("pf_payment_id"),
    paymentStatus: text("payment_status"),
    amountGross: text("amount_gross"),
    sourceIp: text("source_ip").notNull(),
    referer: text("referer"),
    outcome: text("outcome", { enum: ITN_OUTCOMES }).notNull(),
    reason: text("reason"),
    /** The body as posted; for a rejected one only its first 256 characters. */
    rawBody: text("raw_body").notNull(),
    /** When an admin marked an attention item as dealt with, and who. */
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    resolvedBy: uuid("resolved_by"),
  },
  (table) => [
    index("payfast_itns_order_id_idx").on(table.orderId),
    uniqueIndex("payfast_itns_booked_payment_key")
      .on(table.pfPaymentId)
      .where(sql`${table.outcome} in (${BOOKED_OUTCOMES})`),
    index("payfast_itns_attention_idx")
      .on(table.receivedAt)
      .where(sql`${table.resolvedAt} is null and ${table.outcome} in (${ATTENTION_OUTCOMES})`),
  ],
);

/** Notifications the local PayFast emulator sent, so its validate endpoint answers VALID only for them. */
export const payfastEmulatorNotifications = pgTable("payfast_emulator_notifications", {
  paramHash: text("param_hash").primaryKey(),
  createdAt: createdAt(),
});

/**
 * Payments the local PayFast emulator took: its transaction history (what reconciliation asks)
 * and its notification queue (PayFast re-sends a notification that was not answered 200).
 */
export const payfastEmulatorPayments = pgTable(
  "payfast_emulator_payments",
  {
    pfPaymentId: text("pf_payment_id").primaryKey(),
    mPaymentId: text("m_payment_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    /** CANCELLED: not a payment, a card token's cancellation notification (its row keyed `cancel-<token>`). */
    status: text("status", { enum: ["COMPLETE", "FAILED", "PENDING", "CANCELLED"] }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    feeCents: integer("fee_cents").notNull(),
    nameFirst: text("name_first").notNull().default(""),
    nameLast: text("name_last").notNull().default(""),
    itemName: text("item_name").notNull().default(""),
    /** The card token the payment set up or was charged to (recurring billing); null for a plain payment. */
    token: text("token"),
    /** The signed notification body, and where it goes; null notify_url: the notification was "lost". */
    notifyUrl: text("notify_url"),
    itnBody: text("itn_body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("payfast_emulator_payments_due_idx").on(table.nextAttemptAt).where(sql`${table.nextAttemptAt} is not null`),
    index("payfast_emulator_payments_created_idx").on(table.createdAt),
  ],
);

/**
 * Card tokens the local PayFast emulator issued (recurring billing: subscription_type 1, PayFast's
 * own subscriptions, or 2, tokenization charged ad hoc), so a restart keeps them. ACTIVE tokens can
 * be charged; PAUSED ("on hold") and CANCELLED ones are refused as PayFast refuses them.
 */
export const payfastEmulatorTokens = pgTable("payfast_emulator_tokens", {
  token: text("token").primaryKey(),
  merchantId: text("merchant_id").notNull(),
  subscriptionType: integer("subscription_type").notNull(),
  status: text("status", { enum: ["ACTIVE", "PAUSED", "CANCELLED"] })
    .notNull()
    .default("ACTIVE"),
  /** Type 1 only: what PayFast charges each cycle, how often and how many times (0: until cancelled). */
  recurringAmountCents: integer("recurring_amount_cents"),
  frequency: integer("frequency"),
  cycles: integer("cycles"),
  runDate: text("run_date"),
  /** The set-up payment's, reused on later charges' notifications. */
  mPaymentId: text("m_payment_id").notNull().default(""),
  itemName: text("item_name").notNull().default(""),
  nameFirst: text("name_first").notNull().default(""),
  nameLast: text("name_last").notNull().default(""),
  emailAddress: text("email_address").notNull().default(""),
  notifyUrl: text("notify_url"),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * "captured": kept here, not sent (no SMTP_URL); "queued": waiting to be sent; "retrying": the last
 * attempt failed (last_error says why) and next_attempt_at says when the next is; "sent": the SMTP
 * server took it; "failed": every attempt over a day failed. The lists are the admin's too.
 */
export const EMAIL_KINDS = EMAIL_KIND_NAMES;
export type EmailKind = EmailKindName;
export const EMAIL_STATUSES = EMAIL_STATUS_NAMES;
export type EmailStatus = EmailStatusName;

/**
 * The outbox: every message to a customer, written in the same transaction as the event that
 * causes it, and sent by the mail job (src/server/mail). One message per event and kind.
 */
export const emails = pgTable(
  "emails",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind", { enum: EMAIL_KINDS }).notNull(),
    /** The event this message is about (an order id, a reset request id, ...): unique per kind. */
    eventKey: text("event_key").notNull(),
    toAddress: text("to_address").notNull(),
    /** Written when the message goes out (sent or captured), so the row keeps what was sent; null while queued. */
    subject: text("subject"),
    /** What the template needs; the message is rendered from it when it is sent (and when viewed). */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: EMAIL_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    /** A sender working on it holds it until then; after a crash the message is due again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    /** The message as delivered (secrets such as a reset link removed once it went out by SMTP). */
    html: text("html"),
    textBody: text("text_body"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("emails_kind_event_key").on(table.kind, table.eventKey),
    index("emails_due_idx").on(table.nextAttemptAt).where(sql`${table.status} in ('queued', 'retrying')`),
    index("emails_created_at_idx").on(table.createdAt),
  ],
);

/**
 * Marketing consent (POPIA s69): one row per change, never updated, so the history is the evidence.
 * A customer's consent on a channel is its newest row. `words` is exactly what was shown
 * (src/domain/consent.ts), `source` where it was given or withdrawn.
 */
export const marketingConsents = pgTable(
  "marketing_consents",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: CONSENT_CHANNELS }).notNull(),
    granted: boolean("granted").notNull(),
    words: text("words").notNull(),
    source: text("source", { enum: CONSENT_SOURCES }).notNull(),
    /** Who made the change: the customer, or null (an unsubscribe link names no session). */
    actorId: uuid("actor_id"),
    /** request.ip, as the audit trail keeps it. */
    address: text("address"),
    createdAt: createdAt(),
  },
  (table) => [index("marketing_consents_user_channel_idx").on(table.userId, table.channel, table.id)],
);

/** Password reset requests: only the SHA-256 of the token is kept, set when the e-mail is sent. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("password_resets_token_hash_key").on(table.tokenHash),
    index("password_resets_user_id_idx").on(table.userId),
  ],
);

/**
 * Gapless numbers for tax documents (docs/decisions/009): one row per series ("invoice",
 * "credit_note"), incremented in the transaction that issues the document. The row lock orders
 * concurrent payments, and a rolled-back payment rolls its number back, so no number is skipped
 * or given twice (a sequence would skip on rollback).
 */
export const documentCounters = pgTable("document_counters", {
  series: text("series").primaryKey(),
  last: integer("last").notNull(),
});

export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason").notNull(),
    restock: boolean("restock").notNull().default(false),
    status: text("status", { enum: REFUND_STATUS_NAMES }).notNull().default("requested"),
    /** PayFast's words when it refused the refund. */
    payfastMessage: text("payfast_message"),
    /**
     * "shop": asked of PayFast's Refunds API by the shop; "payfast_dashboard": made by the admin in
     * PayFast's dashboard and recorded here (with PayFast's reference and the day it was made).
     */
    madeIn: text("made_in", { enum: ["shop", "payfast_dashboard"] })
      .notNull()
      .default("shop"),
    payfastReference: text("payfast_reference"),
    refundedOn: date("refunded_on", { mode: "string" }),
    /** From the gapless `credit_note` counter, given when PayFast has refunded (CN-000001). */
    creditNoteNumber: integer("credit_note_number"),
    requestedBy: uuid("requested_by").references(() => users.id, { onDelete: "set null" }),
    /** The return request this refund settles (docs/returns.md); null for a refund made from the order. */
    returnRequestId: uuid("return_request_id"),
    /**
     * How its credit note credits the order's lines (src/domain/refund-lines.ts): "lines" chosen (or a
     * return's), "proportional" spread on purpose, both with their split in `refund_lines`; "legacy"
     * for refunds made before lines were recorded, whose amount is apportioned as it always was.
     */
    vatBasis: text("vat_basis", { enum: REFUND_BASES }).notNull().default("legacy"),
    /** The part of the delivery fee this refund credits (its credit note reverses it at the fee's rate). */
    deliveryCents: integer("delivery_cents").notNull().default(0),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    index("refunds_order_id_idx").on(table.orderId),
    // A request is refunded once: a second refund of it fails here while the first is under way or done.
    uniqueIndex("refunds_one_per_return_request")
      .on(table.returnRequestId)
      .where(sql`${table.returnRequestId} is not null and ${table.status} <> 'failed'`),
    uniqueIndex("refunds_credit_note_number_key").on(table.creditNoteNumber),
    // Two admins pressing Refund at once: only one refund of an order can be under way.
    uniqueIndex("refunds_one_requested_per_order").on(table.orderId).where(sql`${table.status} = 'requested'`),
    // A refund made in PayFast's dashboard is recorded once.
    uniqueIndex("refunds_payfast_reference_key").on(table.payfastReference),
    check("refunds_amount_positive", sql`${table.amountCents} > 0`),
    check("refunds_vat_basis_known", sql`${table.vatBasis} in ('legacy', 'lines', 'proportional')`),
    check("refunds_delivery_within_amount", sql`${table.deliveryCents} between 0 and ${table.amountCents}`),
  ],
);

/**
 * What a refund credits of each order line (docs/decisions/036): the units that came back (0 where
 * an amount was spread over the order) and the amount. With the refund's `delivery_cents` these add
 * up to its amount; its credit note reverses each at the line's own stored rate.
 */
export const refundLines = pgTable(
  "refund_lines",
  {
    refundId: uuid("refund_id")
      .notNull()
      .references(() => refunds.id, { onDelete: "cascade" }),
    orderItemId: bigint("order_item_id", { mode: "number" })
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.refundId, table.orderItemId] }),
    index("refund_lines_order_item_idx").on(table.orderItemId),
    check("refund_lines_quantity_not_negative", sql`${table.quantity} >= 0`),
    check("refund_lines_amount_not_negative", sql`${table.amountCents} >= 0`),
  ],
);

/** Refunds the local PayFast emulator made: its refund balance per payment survives a restart. */
export const payfastEmulatorRefunds = pgTable(
  "payfast_emulator_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    pfPaymentId: text("pf_payment_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason").notNull(),
    /** "api": through the Refunds API (the shop); "dashboard": made by hand in PayFast's dashboard. */
    via: text("via", { enum: ["api", "dashboard"] })
      .notNull()
      .default("api"),
    createdAt: createdAt(),
  },
  (table) => [index("payfast_emulator_refunds_payment_idx").on(table.pfPaymentId)],
);

/**
 * What keeps PayFast from reaching the shop, or the shop from reaching PayFast, while it lasts:
 * one row per kind ("api": its API did not answer reconciliation; "ping": the live start's ping
 * failed; "dns": none of PayFast's hosts resolved; "plan_charges": nappy plan charges whose outcome
 * PayFast has not said, plans/reconcile-charges.ts). Open while cleared_at is null: shown in
 * "Needs attention" and cleared by the check that finds it working again (payfast/problems.ts).
 */
export const PAYFAST_PROBLEM_KINDS = ["api", "ping", "dns", "plan_charges"] as const;
export type PayfastProblemKind = (typeof PAYFAST_PROBLEM_KINDS)[number];
export const payfastProblems = pgTable("payfast_problems", {
  kind: text("kind", { enum: PAYFAST_PROBLEM_KINDS }).primaryKey(),
  detail: text("detail").notNull(),
  since: timestamp("since", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  clearedAt: timestamp("cleared_at", { withTimezone: true, mode: "date" }),
});

/**
 * The audit trail (docs/decisions/011-audit-trail.md): every admin action and security event, who
 * did it (id and username as they were), when, from which address, and what changed. Written by
 * src/server/platform/audit.ts in the transaction of the change it records; never updated.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** No foreign key: the record outlives the account, and a failed login may name nobody. */
    actorId: uuid("actor_id"),
    actorUsername: text("actor_username"),
    /** request.ip (TRUST_PROXY decides whether X-Forwarded-For counts). */
    address: text("address"),
    requestId: text("request_id"),
    /** The caller's own X-Request-Id: only what the client claims, never our request id. */
    clientRequestId: text("client_request_id"),
    action: text("action").notNull(),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    /**
     * A repeated security event (platform/audit.ts FOLDED_ACTIONS): the same action by the same actor
     * (or, for nobody known, the same network) within one window is one row, counted here, with
     * the first occurrence's details and the last one's time.
     */
    repeatCount: integer("repeat_count").notNull().default(1),
    lastAt: timestamp("last_at", { withTimezone: true, mode: "date" }),
    /** Action, actor and window of a folded event: unique, so repeats find their row. */
    foldKey: text("fold_key"),
  },
  (table) => [
    uniqueIndex("audit_log_fold_key").on(table.foldKey).where(sql`${table.foldKey} is not null`),
    // An order's (or a user's) actions, newest first, for the order view and the customer page.
    index("audit_log_subject_idx").on(table.subjectType, table.subjectId, table.id),
    index("audit_log_actor_idx").on(table.actorId, table.id),
  ],
);

/**
 * The dashboard's counters (src/server/admin/dashboard.ts): orders and their totals per South
 * African day of placing and status. A statement trigger on orders appends what each statement
 * changed to order_stat_changes (inserts only, so no order transaction ever waits on another's
 * counter row); the compact-order-stats job folds them into order_stats every minute. The
 * dashboard sums both, so it is exact at once and its cost does not grow with the orders.
 */
export const orderStats = pgTable(
  "order_stats",
  {
    day: date("day", { mode: "string" }).notNull(),
    status: text("status").notNull(),
    orders: integer("orders").notNull(),
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.status] })],
);

export const orderStatChanges = pgTable("order_stat_changes", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  day: date("day", { mode: "string" }).notNull(),
  status: text("status").notNull(),
  orders: integer("orders").notNull(),
  totalCents: bigint("total_cents", { mode: "number" }).notNull(),
});

/**
 * Each backup's outcome (src/server/platform/backup): the daily job's and `npm run backup`'s. The admin's
 * dashboard and the metrics show the latest; the alerts check its age.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }).notNull(),
    /** "daily" (the job) or "command" (npm run backup). */
    trigger: text("trigger", { enum: ["daily", "command"] }).notNull(),
    /** The file written; null when the backup failed. */
    file: text("file"),
    bytes: bigint("bytes", { mode: "number" }),
    rows: bigint("rows", { mode: "number" }),
    /** Why it failed; null when it succeeded. */
    error: text("error"),
    /** The off-site copy (BACKUP_S3_URL): the object's key in the bucket; null when none was made. */
    copyKey: text("copy_key"),
    /** When the copy ended, well or not; null when none was tried (no bucket, or the backup failed). */
    copyFinishedAt: timestamp("copy_finished_at", { withTimezone: true, mode: "date" }),
    /** Why the copy failed; null when it succeeded or none was tried. */
    copyError: text("copy_error"),
  },
  (table) => [index("backup_runs_finished_at_idx").on(table.finishedAt)],
);

/**
 * The owner's alerts (src/server/alerts): one row per problem, keyed by what it is
 * ("email-failing", "payment-attention", "job-failing:send-emails", ...). A problem is mailed once
 * when raised and once when resolved, however often the check sees it in between.
 */
export const alerts = pgTable("alerts", {
  key: text("key").primaryKey(),
  title: text("title").notNull(),
  detail: text("detail").notNull(),
  raisedAt: timestamp("raised_at", { withTimezone: true, mode: "date" }).notNull(),
  /** Null while the problem lasts. */
  resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
});

/**
 * Cancellations, returns and complaints (docs/returns.md): one row per request, with its lines and
 * its status history. The server decides every window, deadline and amount (src/domain/returns.ts);
 * the order row is locked while a request is written or moved, so a unit is never asked back twice.
 */
export const returnRequests = pgTable(
  "return_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** From the gapless `return_request` counter: RET-000001. */
    number: integer("number").notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: RETURN_REASONS }).notNull(),
    /** The customer's own words (a complaint's whole content). */
    details: text("details").notNull().default(""),
    status: text("status", { enum: RETURN_STATUSES }).notNull().default("requested"),
    /** "customer", or "shop" for a paid order the shop cannot fill (ECTA s46). */
    openedBy: text("opened_by", { enum: ["customer", "shop"] }).notNull(),
    deadlineKind: text("deadline_kind", { enum: ["refund_30_days", "resolve_15_business_days"] }).notNull(),
    /** The last South African day the shop has (the end of that day is the deadline). */
    deadlineDay: date("deadline_day", { mode: "string" }).notNull(),
    /** What the shop offers to refund, decided when the request is made (cents). */
    offeredRefundCents: integer("offered_refund_cents").notNull().default(0),
    /** The return instructions e-mailed on accept; the decline reason; the exchange or resolution outcome. */
    instructions: text("instructions"),
    decision: text("decision"),
    refundId: uuid("refund_id"),
    /**
     * The day the goods were received that the windows counted from (ECTA s44(1), CPA s56), and
     * where it came from: the delivery recorded on the order, or the day the customer stated.
     * Null for requests that name no received goods (a cancellation, a complaint) and older ones.
     */
    receivedOn: date("received_on", { mode: "string" }),
    receivedBasis: text("received_basis", { enum: RECEIPT_BASES }),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("return_requests_number_key").on(table.number),
    index("return_requests_order_id_idx").on(table.orderId),
    // The admin's list: open requests, oldest first.
    index("return_requests_open_idx")
      .on(table.createdAt)
      .where(sql`${table.status} in ('requested', 'accepted', 'received')`),
  ],
);

export const returnRequestLines = pgTable(
  "return_request_lines",
  {
    requestId: uuid("request_id")
      .notNull()
      .references(() => returnRequests.id, { onDelete: "cascade" }),
    orderItemId: bigint("order_item_id", { mode: "number" })
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    /** Units put back on the shelf when the goods were received. */
    restocked: integer("restocked").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.requestId, table.orderItemId] }),
    index("return_request_lines_item_idx").on(table.orderItemId),
    check("return_request_lines_quantity_positive", sql`${table.quantity} > 0`),
    check("return_request_lines_restocked_within", sql`${table.restocked} between 0 and ${table.quantity}`),
  ],
);

/** Each step of a request: who, when, and what was said (the customer's status history and the register's dates). */
export const returnRequestEvents = pgTable(
  "return_request_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => returnRequests.id, { onDelete: "cascade" }),
    status: text("status", { enum: RETURN_STATUSES }).notNull(),
    note: text("note"),
    actorId: uuid("actor_id"),
    actorUsername: text("actor_username"),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [index("return_request_events_request_idx").on(table.requestId, table.id)],
);

/**
 * Promo codes (src/server/promo/, docs/decisions/023-promo-codes.md). Empty product_ids and
 * category_ids: the code applies to every product.
 */
export const promoCodes = pgTable(
  "promo_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** In capitals; shoppers' input is compared in capitals. */
    code: text("code").notNull(),
    kind: text("kind", { enum: PROMO_KINDS }).notNull(),
    percent: integer("percent"),
    amountCents: integer("amount_cents"),
    minSpendCents: integer("min_spend_cents"),
    startsAt: timestamp("starts_at", { withTimezone: true, mode: "date" }),
    endsAt: timestamp("ends_at", { withTimezone: true, mode: "date" }),
    maxUses: integer("max_uses"),
    maxUsesPerCustomer: integer("max_uses_per_customer"),
    productIds: uuid("product_ids").array().notNull().default(sql`'{}'`),
    categoryIds: uuid("category_ids").array().notNull().default(sql`'{}'`),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("promo_codes_code_key").on(table.code),
    check("promo_codes_kind_known", sql`${table.kind} in ('percent', 'fixed', 'free_delivery')`),
    check(
      "promo_codes_kind_value",
      sql`(${table.kind} = 'percent' and ${table.percent} between 1 and 100 and ${table.amountCents} is null)
        or (${table.kind} = 'fixed' and ${table.amountCents} > 0 and ${table.percent} is null)
        or (${table.kind} = 'free_delivery' and ${table.percent} is null and ${table.amountCents} is null)`,
    ),
    check(
      "promo_codes_dates_ordered",
      sql`${table.startsAt} is null or ${table.endsAt} is null or ${table.startsAt} < ${table.endsAt}`,
    ),
  ],
);

/**
 * Back-in-stock alerts (src/server/stock-alerts): an address that asked to hear when a sold-out
 * size of a product is back. A logged-in shopper's is confirmed at once; an address given by
 * anyone waits for the e-mailed link (confirmed_at null until then). When the size is back the
 * alert's one e-mail goes to the outbox and the row is deleted: the subscription ends.
 */
export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    size: text("size").notNull(),
    email: text("email").notNull(),
    /** The shopper who asked while logged in with a proven address; null for an address given by anyone. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    /**
     * The client network (platform/client-network.ts) an unconfirmed alert was asked from: its limit of
     * waiting alerts is counted by it. Null for alerts confirmed at once and those asked before.
     */
    askedFrom: text("asked_from"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("stock_alerts_one_per_address").on(table.productId, table.size, sql`lower(${table.email})`),
    index("stock_alerts_email_idx").on(sql`lower(${table.email})`),
    index("stock_alerts_waiting_idx").on(table.askedFrom, table.createdAt).where(sql`${table.confirmedAt} is null`),
  ],
);

/**
 * One row per order placed with a code: "held" from create-order until the order is paid ("used")
 * or cancelled or expired ("released"). Held and used rows count against the code's limits. The
 * order id has no foreign key: the row is written, under the code's row lock, just before the order.
 */
export const promoRedemptions = pgTable(
  "promo_redemptions",
  {
    orderId: uuid("order_id").primaryKey(),
    promoCodeId: uuid("promo_code_id")
      .notNull()
      .references(() => promoCodes.id, { onDelete: "restrict" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * The customer's address, lower-cased, when it was proven theirs at checkout (else null): a
     * per-customer limit counts uses by this address as well as by the account.
     */
    email: text("email"),
    state: text("state", { enum: ["held", "used", "released"] })
      .notNull()
      .default("held"),
    /** What the order was given: off the goods plus a waived delivery fee. */
    discountCents: integer("discount_cents").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    index("promo_redemptions_code_state_idx").on(table.promoCodeId, table.state),
    index("promo_redemptions_code_user_idx").on(table.promoCodeId, table.userId),
    index("promo_redemptions_code_email_idx").on(table.promoCodeId, table.email),
    check("promo_redemptions_state_known", sql`${table.state} in ('held', 'used', 'released')`),
  ],
);

/**
 * Keys the shop makes for itself, one row per use, written by the migration that needs it (a random
 * 256-bit key from PostgreSQL): every app instance on the database signs and checks alike, with
 * no setting to forget. "stock_alert_links": the HMAC key of the alert e-mails' links.
 */
export const shopKeys = pgTable("shop_keys", {
  name: text("name").primaryKey(),
  key: text("key").notNull(),
  createdAt: createdAt(),
});

/**
 * The owner's ticks on "Before you open" (content/launch-checklist.md, docs/decisions/039): one row
 * per item ever ticked, with who set it as it is now and when. Unticking keeps the row (done false)
 * so the page says who unticked it; the audit trail keeps every change. The item id is the file's
 * `{#id}`: no foreign key, an item the owner removes from the file keeps its row, unshown.
 */
export const launchChecklistTicks = pgTable("launch_checklist_ticks", {
  itemId: text("item_id").primaryKey(),
  done: boolean("done").notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  /** No foreign key, as the audit trail: the record outlives the account. */
  changedById: uuid("changed_by_id"),
  changedByUsername: text("changed_by_username").notNull(),
});

/**
 * What each tax document said when it was issued (docs/decisions/035): an invoice, written in the
 * paying transaction with its number, a credit note in the transaction that completes its refund,
 * and a corrected invoice (VAT Act s20(1B)) naming the one it replaces. `data` is the document
 * as its PDF prints it (seller, buyer, lines, rates, amounts, VAT, dates, policies) less its
 * number, which is `number`; every download renders it, never today's settings. Rows are never
 * changed but for the download count (a download after the first is marked "Copy") and the
 * buyer's details when the order's retention ends. `frozen`: "issue", or "first_use" for a
 * document issued before this table, frozen the first time it was needed.
 */
export const issuedDocuments = pgTable(
  "issued_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["invoice", "credit_note"] }).notNull(),
    /** Its number in the gapless series of its kind (document_counters). */
    number: integer("number").notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** A credit note's refund. */
    refundId: uuid("refund_id").references(() => refunds.id, { onDelete: "restrict" }),
    /**
     * A corrected invoice: the number of the invoice it replaces, which stays readable (a number, not
     * a reference to the row, so a backup loads this table in any row order).
     */
    replacesNumber: integer("replaces_number"),
    data: jsonb("data").notNull(),
    frozen: text("frozen", { enum: ["issue", "first_use"] })
      .notNull()
      .default("issue"),
    issuedAt: timestamp("issued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    downloads: integer("downloads").notNull().default(0),
    firstDownloadedAt: timestamp("first_downloaded_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("issued_documents_kind_number_key").on(table.kind, table.number),
    uniqueIndex("issued_documents_refund_key").on(table.refundId),
    // One original invoice per order; corrections add to it.
    uniqueIndex("issued_documents_one_invoice_per_order")
      .on(table.orderId)
      .where(sql`${table.kind} = 'invoice' and ${table.replacesNumber} is null`),
    index("issued_documents_order_id_idx").on(table.orderId),
    check("issued_documents_kind_known", sql`${table.kind} in ('invoice', 'credit_note')`),
    check(
      "issued_documents_credit_note_refund",
      sql`(${table.kind} = 'credit_note') = (${table.refundId} is not null)`,
    ),
  ],
);

/**
 * A parent's child, for the size finder (issue 42): a first name or nickname, the birth month and
 * the last weight with its date, all optional but the name. Personal information: in the data
 * export, removed with the account (cascade), never in an e-mail subject.
 */
export const childProfiles = pgTable(
  "child_profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first day of the birth month. */
    birthMonth: date("birth_month", { mode: "string" }),
    weightGrams: integer("weight_grams"),
    weighedOn: date("weighed_on", { mode: "string" }),
    /** When "time to move up a size?" was shown for the weight as it is; a new weight clears it. */
    sizeUpPromptedAt: timestamp("size_up_prompted_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("child_profiles_user_id_idx").on(table.userId),
    check("child_profiles_name_length", sql`char_length(${table.name}) between 1 and 40`),
    check("child_profiles_weight_range", sql`${table.weightGrams} between 1000 and 40000`),
  ],
);

/**
 * The owner's box sizes (docs/decisions/051): inside measures in millimetres and the most a full
 * box may weigh; an order is packed into the fewest of them (src/domain/parcels.ts).
 */
export const deliveryBoxes = pgTable(
  "delivery_boxes",
  {
    code: text("code").primaryKey(),
    name: text("name").notNull(),
    lengthMm: integer("length_mm").notNull(),
    widthMm: integer("width_mm").notNull(),
    heightMm: integer("height_mm").notNull(),
    maxWeightGrams: integer("max_weight_grams").notNull(),
  },
  (table) => [
    check(
      "delivery_boxes_measures_positive",
      sql`${table.lengthMm} > 0 and ${table.widthMm} > 0 and ${table.heightMm} > 0 and ${table.maxWeightGrams} > 0`,
    ),
  ],
);

/**
 * A nappy plan (docs/decisions/050-nappy-plans.md): lines delivered every `cadence_weeks`, each box
 * charged on `next_date` at that day's prices less the plan saving. Made by the order that paid its
 * first box (`created_from_order_id`), with that order's delivery details, which the plan keeps as
 * the order does. `payfast_token` is PayFast's tokenization token from the first payment's
 * notification (mode "card"); a "reminder" plan (paid by EFT) has none and is e-mailed a pay link.
 */
export const plans = pgTable(
  "plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: PLAN_STATUSES }).notNull().default("pending_first_payment"),
    mode: text("mode", { enum: PLAN_MODES }).notNull(),
    cadenceWeeks: smallint("cadence_weeks").notNull(),
    /** The South African day the next box is charged (and sent the next business day at the latest). */
    nextDate: date("next_date", { mode: "string" }).notNull(),
    /** A paused plan starts again on this day (status "paused"); null otherwise. */
    pausedUntil: date("paused_until", { mode: "string" }),
    customerEmail: text("customer_email").notNull(),
    deliveryName: text("delivery_name").notNull(),
    deliveryPhone: text("delivery_phone").notNull(),
    deliveryAddress: text("delivery_address").notNull(),
    deliveryCity: text("delivery_city").notNull(),
    deliveryProvince: text("delivery_province").notNull(),
    deliveryZipCode: text("delivery_zip_code").notNull(),
    deliverySuburb: text("delivery_suburb").notNull().default(""),
    deliveryComplex: text("delivery_complex").notNull().default(""),
    deliveryInstructions: text("delivery_instructions").notNull().default(""),
    deliveryAltPhone: text("delivery_alt_phone").notNull().default(""),
    /** PayFast's token (ad hoc agreement, subscription_type 2); set once by the first payment's notification. */
    payfastToken: text("payfast_token"),
    tokenStoredAt: timestamp("token_stored_at", { withTimezone: true, mode: "date" }),
    /** When PayFast confirmed the token cancelled (the cancel sweep, or its CANCELLED notification). */
    tokenCancelledAt: timestamp("token_cancelled_at", { withTimezone: true, mode: "date" }),
    createdFromOrderId: uuid("created_from_order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** The terms version the plan was agreed under (its "Nappy plans" section). */
    termsVersionId: integer("terms_version_id").references(() => policyVersions.id),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    /** "shopper" (My plans), "payfast" (cancelled in PayFast), "admin", "account_closed", "unpaid" (first order never paid). */
    cancelReason: text("cancel_reason"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("plans_user_id_idx").on(table.userId),
    // The charging job's and the notice job's question: which open plans are due by a day?
    index("plans_status_next_date_idx").on(table.status, table.nextDate),
    uniqueIndex("plans_created_from_order_key").on(table.createdFromOrderId),
    uniqueIndex("plans_payfast_token_key").on(table.payfastToken).where(sql`${table.payfastToken} is not null`),
    check(
      "plans_status_known",
      sql`${table.status} in ('pending_first_payment', 'active', 'paused', 'needs_card', 'cancelled')`,
    ),
    check("plans_mode_known", sql`${table.mode} in ('card', 'reminder')`),
    check("plans_cadence_range", sql`${table.cadenceWeeks} between 2 and 8`),
    check("plans_paused_until", sql`(${table.status} = 'paused') = (${table.pausedUntil} is not null)`),
  ],
);

/** What a plan's box holds: one row per product and size. */
export const planLines = pgTable(
  "plan_lines",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    size: text("size").notNull(),
    quantity: integer("quantity").notNull(),
    /** The unit's plan price at the last box paid (the "your next box" e-mail says when it rose). */
    lastUnitPriceCents: integer("last_unit_price_cents"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("plan_lines_plan_product_size_key").on(table.planId, table.productId, table.size),
    index("plan_lines_product_id_idx").on(table.productId),
    check("plan_lines_quantity_range", sql`${table.quantity} between 1 and 999`),
  ],
);

/**
 * What became of each delivery date of a plan. The unique key on (plan, date) is what keeps two
 * runners, a restart or a retried job from charging one delivery twice: the charging job inserts
 * the row as "charging" before it calls PayFast, and a second insert fails. A skipped date is a
 * row too ("skipped"), so a skip and a charge of the same date cannot both happen.
 */
export const planCharges = pgTable(
  "plan_charges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    status: text("status", { enum: PLAN_CHARGE_STATUSES }).notNull(),
    /** The box's order (its id is the m_payment_id of the ad hoc charge); null for a skip. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents"),
    /** Attempts at charging this date (a decline is tried once more after 2 days). */
    attempts: integer("attempts").notNull().default(0),
    /** PayFast's own words about the last attempt (a decline's code, an error's text). */
    payfastResponse: text("payfast_response"),
    /** PayFast's id of the charge, from its answer: a notification is matched by it before its m_payment_id. */
    pfPaymentId: text("pf_payment_id"),
    /** A declined first attempt is tried once more from this moment (plans/charge.ts); null: no retry due. */
    retryAt: timestamp("retry_at", { withTimezone: true, mode: "date" }),
    /** When the last attempt was claimed: a "charging" row older than a few minutes is reconciliation's to settle. */
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    settledAt: timestamp("settled_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("plan_charges_plan_date_key").on(table.planId, table.deliveryDate),
    uniqueIndex("plan_charges_order_key").on(table.orderId),
    index("plan_charges_status_idx").on(table.status),
    index("plan_charges_pf_payment_id_idx").on(table.pfPaymentId).where(sql`${table.pfPaymentId} is not null`),
    check(
      "plan_charges_status_known",
      sql`${table.status} in ('charging', 'paid', 'declined', 'unknown', 'skipped', 'out_of_stock', 'reminded')`,
    ),
  ],
);

/**
 * A waybill booked with a courier for an order (docs/decisions/051, round 2): one per order. The
 * label PDF is kept here because the courier's link to it expires after 24 hours. `state` only moves
 * forward (src/domain/tracking.ts); the events that moved it are in shipment_events.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** Who carries it: ShipLogic (door) or TCG Locker. */
    vendor: text("vendor", { enum: ["shiplogic", "tcg_locker"] }).notNull(),
    vendorShipmentId: text("vendor_shipment_id").notNull(),
    waybillNumber: text("waybill_number").notNull(),
    trackingReference: text("tracking_reference").notNull(),
    serviceLevelCode: text("service_level_code").notNull(),
    /** What the courier charged at booking, in cents (the delivery-cost report compares it with the fee). */
    chargedCents: integer("charged_cents"),
    /**
     * What the courier charges after re-weighing the parcel (its parcel-dimension-changes webhook, then
     * the shipment's rate asked again): null while it has not re-weighed. `reweighedGrams` is its weight.
     */
    finalChargedCents: integer("final_charged_cents"),
    reweighedGrams: integer("reweighed_grams"),
    reweighedAt: timestamp("reweighed_at", { withTimezone: true, mode: "date" }),
    labelPdf: bytea("label_pdf").notNull(),
    state: text("state", { enum: SHIPMENT_STATES }).notNull().default("booked"),
    stateAt: timestamp("state_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The locker's collection PIN, once the parcel is in it. */
    lockerPin: text("locker_pin"),
    bookedBy: uuid("booked_by").references(() => users.id, { onDelete: "set null" }),
    /** When the hourly poll last asked the courier (null: never). */
    polledAt: timestamp("polled_at", { withTimezone: true, mode: "date" }),
    /**
     * A problem state (failed attempt, not collected, returned, lost) waits in the admin's "Needs
     * attention" until an admin marks it resolved here; a new state clears it (tracking.ts).
     */
    attentionResolvedAt: timestamp("attention_resolved_at", { withTimezone: true, mode: "date" }),
    attentionResolvedBy: uuid("attention_resolved_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("shipments_order_id_key").on(table.orderId),
    uniqueIndex("shipments_vendor_reference_key").on(table.vendor, table.trackingReference),
    index("shipments_open_idx").on(table.polledAt).where(sql`${table.state} not in ('delivered', 'returned', 'lost')`),
  ],
);

/**
 * Each tracking event of a shipment, kept once (the courier's event id): webhooks arrive at least
 * once, duplicated and out of order, and the hourly poll reads them again.
 */
export const shipmentEvents = pgTable(
  "shipment_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    shipmentId: uuid("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    vendorEventId: text("vendor_event_id").notNull(),
    vendorStatus: text("vendor_status").notNull(),
    state: text("state", { enum: SHIPMENT_STATES }).notNull(),
    message: text("message").notNull().default(""),
    location: text("location"),
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull(),
    /** How it arrived: the vendor's webhook or the hourly poll. */
    source: text("source", { enum: ["webhook", "poll"] }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("shipment_events_vendor_event_key").on(table.shipmentId, table.vendorEventId),
    index("shipment_events_shipment_idx").on(table.shipmentId, table.occurredAt),
  ],
);
