ALTER TABLE "shipments" ADD COLUMN "final_charged_cents" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "reweighed_grams" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "reweighed_at" timestamp with time zone;