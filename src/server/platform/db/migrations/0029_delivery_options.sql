CREATE TABLE "delivery_boxes" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"length_mm" integer NOT NULL,
	"width_mm" integer NOT NULL,
	"height_mm" integer NOT NULL,
	"max_weight_grams" integer NOT NULL,
	CONSTRAINT "delivery_boxes_measures_positive" CHECK ("delivery_boxes"."length_mm" > 0 and "delivery_boxes"."width_mm" > 0 and "delivery_boxes"."height_mm" > 0 and "delivery_boxes"."max_weight_grams" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_service" text DEFAULT 'door_economy' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_point_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_point_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_point_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_quoted_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_price_source" text DEFAULT 'flat' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_rate_revision_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_expected_day" date;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "size_parcels" jsonb DEFAULT '{}'::jsonb NOT NULL;
