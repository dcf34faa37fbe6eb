-- hand-written:
-- The storefront's "Price per unit" sort key (src/domain/packs.ts lowestPerUnitCents): the lowest
-- of round(size price / pack count) over the sizes that have a pack count; a size without its own
-- price costs price_cents. Null when no size has a count. IMMUTABLE, so a generated column can use
-- it (docs/decisions/026-pages-that-stay-small.md).
CREATE FUNCTION product_unit_cents(sizes jsonb, size_prices jsonb, pack_counts jsonb, price_cents integer)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select min(round(coalesce((size_prices ->> size)::numeric, price_cents) / (pack_counts ->> size)::numeric))::integer
  from jsonb_array_elements_text(sizes) as size
  where coalesce((pack_counts ->> size)::numeric, 0) > 0
$$;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "unit_cents" integer GENERATED ALWAYS AS (product_unit_cents(sizes, size_prices, size_pack_counts, price_cents)) STORED;--> statement-breakpoint
CREATE INDEX "products_name_id_idx" ON "products" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "products_category_name_id_idx" ON "products" USING btree ("category_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "products_price_name_id_idx" ON "products" USING btree ("price_cents",lower("name"),"id");
--> statement-breakpoint
-- hand-written:
-- The storefront's search (GET /api/products/search?q=) finds a fragment of the name anywhere,
-- case-insensitively: LIKE '%q%' on lower(name), which this trigram index serves. The expression
-- must stay PRODUCT_SEARCH_TEXT of src/server/catalog/search.ts, or the index is not used.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin (lower("name") gin_trgm_ops);
