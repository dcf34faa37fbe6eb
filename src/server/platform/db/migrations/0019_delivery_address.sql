ALTER TABLE "orders" ADD COLUMN "delivery_suburb" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_complex" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_alt_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alt_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "complex" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suburb" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "province" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "delivery_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- hand-written:
-- The admin's search also finds the delivery suburb: the trigram index is rebuilt over the new
-- expression, which must stay exactly ORDER_SEARCH_TEXT of src/server/admin/order-queries.ts
-- (docs/decisions/010-keyset-paging-and-trigram-search.md). Orders placed before have suburb ''.
DROP INDEX IF EXISTS "orders_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin (
	lower("customer_email" || ' ' || "delivery_name" || ' ' || "delivery_phone" || ' ' || regexp_replace("delivery_phone", '[^0-9]+', '', 'g') || ' ' || "delivery_suburb" || ' ' || right("id"::text, 8)) gin_trgm_ops
);
