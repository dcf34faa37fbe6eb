CREATE TABLE "payfast_emulator_payments" (
	"pf_payment_id" text PRIMARY KEY NOT NULL,
	"m_payment_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"name_first" text DEFAULT '' NOT NULL,
	"name_last" text DEFAULT '' NOT NULL,
	"item_name" text DEFAULT '' NOT NULL,
	"notify_url" text,
	"itn_body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_known";--> statement-breakpoint
DROP INDEX "payfast_itns_accepted_payment_key";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pf_payment_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payfast_status" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payfast_status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payfast_itns" ADD COLUMN "via" text DEFAULT 'itn' NOT NULL;--> statement-breakpoint
ALTER TABLE "payfast_itns" ADD COLUMN "referer" text;--> statement-breakpoint
ALTER TABLE "payfast_itns" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payfast_itns" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
CREATE INDEX "payfast_emulator_payments_due_idx" ON "payfast_emulator_payments" USING btree ("next_attempt_at") WHERE "payfast_emulator_payments"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "payfast_emulator_payments_created_idx" ON "payfast_emulator_payments" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_pf_payment_id_key" ON "orders" USING btree ("pf_payment_id") WHERE "orders"."pf_payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payfast_itns_booked_payment_key" ON "payfast_itns" USING btree ("pf_payment_id") WHERE "payfast_itns"."outcome" in ('accepted', 'paid_twice', 'paid_after_cancel', 'wrong_amount', 'unknown_order', 'foreign_merchant');--> statement-breakpoint
CREATE INDEX "payfast_itns_attention_idx" ON "payfast_itns" USING btree ("received_at") WHERE "payfast_itns"."resolved_at" is null and "payfast_itns"."outcome" in ('paid_twice', 'paid_after_cancel', 'wrong_amount', 'unknown_order', 'foreign_merchant');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK ("orders"."status" in ('pending', 'completed', 'processed', 'cancelled'));--> statement-breakpoint
UPDATE "orders" SET "pf_payment_id" = "payfast_itns"."pf_payment_id" FROM "payfast_itns" WHERE "payfast_itns"."order_id" = "orders"."id" AND "payfast_itns"."outcome" = 'accepted';
