DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_created_at_idx";--> statement-breakpoint
CREATE INDEX "orders_created_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_created_id_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
-- hand-written:
-- The admin's search (GET /api/admin/orders?q=) finds a fragment of the customer's e-mail, name
-- or phone (as typed, or its digits alone) or the order number (the id's last 8 characters),
-- case-insensitively, with one trigram index over one expression, so a fragment stays fast at
-- 200,000 orders (docs/decisions/010-keyset-paging-and-trigram-search.md). The expression must
-- stay exactly ORDER_SEARCH_TEXT of src/server/admin/order-queries.ts, or the index is not used.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin (
	lower("customer_email" || ' ' || "delivery_name" || ' ' || "delivery_phone" || ' ' || regexp_replace("delivery_phone", '[^0-9]+', '', 'g') || ' ' || right("id"::text, 8)) gin_trgm_ops
);
