CREATE TABLE "product_slug_redirects" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "slug" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
ALTER TABLE "product_slug_redirects" ADD CONSTRAINT "product_slug_redirects_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "products_slug_key" ON "products" USING btree ("slug");--> statement-breakpoint
-- hand-written:
-- Existing products get their slug from their name, as src/domain/slug.ts makes it for new ones
-- ("&" reads "and", anything but a-z and 0-9 separates words); a name shared by several products
-- numbers the later ones (-2, -3...) in the order they were created.
WITH "base" AS (
	SELECT "id", "created_at",
		coalesce(nullif(trim(BOTH '-' FROM regexp_replace(replace(lower("name"), '&', ' and '), '[^a-z0-9]+', '-', 'g')), ''), 'product') AS "slug"
	FROM "products"
), "numbered" AS (
	SELECT "id", "slug", row_number() OVER (PARTITION BY "slug" ORDER BY "created_at", "id") AS "n" FROM "base"
)
UPDATE "products" SET "slug" = CASE WHEN "numbered"."n" = 1 THEN "numbered"."slug" ELSE "numbered"."slug" || '-' || "numbered"."n" END
FROM "numbered" WHERE "products"."id" = "numbered"."id";
