CREATE TABLE "shipment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shipment_id" uuid NOT NULL,
	"vendor_event_id" text NOT NULL,
	"vendor_status" text NOT NULL,
	"state" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"location" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"vendor" text NOT NULL,
	"vendor_shipment_id" text NOT NULL,
	"waybill_number" text NOT NULL,
	"tracking_reference" text NOT NULL,
	"service_level_code" text NOT NULL,
	"charged_cents" integer,
	"label_pdf" "bytea" NOT NULL,
	"state" text DEFAULT 'booked' NOT NULL,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locker_pin" text,
	"booked_by" uuid,
	"polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_booked_by_users_id_fk" FOREIGN KEY ("booked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_events_vendor_event_key" ON "shipment_events" USING btree ("shipment_id","vendor_event_id");--> statement-breakpoint
CREATE INDEX "shipment_events_shipment_idx" ON "shipment_events" USING btree ("shipment_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_id_key" ON "shipments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_vendor_reference_key" ON "shipments" USING btree ("vendor","tracking_reference");--> statement-breakpoint
CREATE INDEX "shipments_open_idx" ON "shipments" USING btree ("polled_at") WHERE "shipments"."state" not in ('delivered', 'returned', 'lost');--> statement-breakpoint
-- Hand-written (Drizzle cannot express these):
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_state_known" CHECK ("state" in ('booked', 'collected', 'in_transit', 'out_for_delivery', 'failed_attempt', 'ready_for_collection', 'delivered', 'not_collected', 'returned', 'lost'));--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_state_known" CHECK ("state" in ('booked', 'collected', 'in_transit', 'out_for_delivery', 'failed_attempt', 'ready_for_collection', 'delivered', 'not_collected', 'returned', 'lost'));--> statement-breakpoint
-- The key that signs the tracking page's links in e-mails (delivery/tracking-links.ts), made once per database.
INSERT INTO "shop_keys" ("name", "key") VALUES (
	'tracking_links',
	encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex')
) ON CONFLICT ("name") DO NOTHING;--> statement-breakpoint
-- The outbox takes the delivery messages (the check is hand-written since 0004; the last to set it was 0023).
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'email_confirm', 'signup_attempt', 'login_failures', 'plan_next_box', 'delivery_update'));
