CREATE TABLE "product_stock" (
	"product_id" uuid NOT NULL,
	"size" text NOT NULL,
	"quantity" integer NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_stock_product_id_size_pk" PRIMARY KEY("product_id","size"),
	CONSTRAINT "product_stock_quantity_not_negative" CHECK ("product_stock"."quantity" >= 0),
	CONSTRAINT "product_stock_held_not_negative" CHECK ("product_stock"."held" >= 0),
	CONSTRAINT "product_stock_held_within_quantity" CHECK ("product_stock"."held" <= "product_stock"."quantity")
);
--> statement-breakpoint
DROP INDEX "payfast_itns_booked_payment_key";--> statement-breakpoint
DROP INDEX "payfast_itns_attention_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stock_state" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_stock" ADD CONSTRAINT "product_stock_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_pending_created_idx" ON "orders" USING btree ("created_at") WHERE "orders"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "payfast_itns_booked_payment_key" ON "payfast_itns" USING btree ("pf_payment_id") WHERE "payfast_itns"."outcome" in ('accepted', 'paid_twice', 'paid_after_cancel', 'paid_out_of_stock', 'wrong_amount', 'unknown_order', 'foreign_merchant');--> statement-breakpoint
CREATE INDEX "payfast_itns_attention_idx" ON "payfast_itns" USING btree ("received_at") WHERE "payfast_itns"."resolved_at" is null and "payfast_itns"."outcome" in ('paid_twice', 'paid_after_cancel', 'paid_out_of_stock', 'wrong_amount', 'unknown_order', 'foreign_merchant');--> statement-breakpoint
-- Starting quantities (docs/product.md §10): 50 of every size that was in stock, 0 of a size or a
-- product marked out of stock. Orders placed before this hold nothing (stock_state 'none').
INSERT INTO "product_stock" ("product_id", "size", "quantity")
SELECT "products"."id", "size"."name",
	CASE WHEN "products"."out_of_stock" OR coalesce(("products"."size_out_of_stock" ->> "size"."name")::boolean, false) THEN 0 ELSE 50 END
FROM "products" CROSS JOIN LATERAL jsonb_array_elements_text("products"."sizes") AS "size"("name")
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_stock_state_known" CHECK ("stock_state" in ('held', 'sold', 'released', 'short', 'none'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cancel_reason_known" CHECK ("cancel_reason" in ('expired', 'shopper', 'admin'));--> statement-breakpoint
-- The public catalogue shows what can be sold, so the caches (0002) hear of stock changes too: of
-- every insert or delete, but of an update only when what the public sees changes (sold out, or
-- a count of 5 or fewer), so that ordinary orders do not empty the cache.
CREATE TRIGGER "product_stock_notify_catalog_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "product_stock"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "product_stock_notify_catalog_seen" AFTER UPDATE ON "product_stock"
	FOR EACH ROW WHEN (least(greatest(OLD."quantity" - OLD."held", 0), 6) IS DISTINCT FROM least(greatest(NEW."quantity" - NEW."held", 0), 6))
	EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "size_out_of_stock";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "out_of_stock";