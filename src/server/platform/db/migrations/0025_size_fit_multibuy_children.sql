CREATE TABLE "child_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"birth_month" date,
	"weight_grams" integer,
	"weighed_on" date,
	"size_up_prompted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "child_profiles_name_length" CHECK (char_length("child_profiles"."name") between 1 and 40),
	CONSTRAINT "child_profiles_weight_range" CHECK ("child_profiles"."weight_grams" between 1000 and 40000)
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "multibuy_discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "multibuy_discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fit_measure" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "size_fits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "absorbency" smallint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "multibuy_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "child_profiles" ADD CONSTRAINT "child_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "child_profiles_user_id_idx" ON "child_profiles" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_discounts_within_amount" CHECK ("order_items"."multibuy_discount_cents" >= 0 and "order_items"."discount_cents" + "order_items"."multibuy_discount_cents" <= "order_items"."unit_price_cents" * "order_items"."quantity");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_fit_measure_known" CHECK ("products"."fit_measure" in ('weight', 'waist'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_absorbency_range" CHECK ("products"."absorbency" between 1 and 6);