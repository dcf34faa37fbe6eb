CREATE TABLE "payfast_problems" (
	"kind" text PRIMARY KEY NOT NULL,
	"detail" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cleared_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "payfast_itns_attention_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hold_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payfast_emulator_refunds" ADD COLUMN "via" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "made_in" text DEFAULT 'shop' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payfast_reference" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "refunded_on" date;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_payfast_reference_key" ON "refunds" USING btree ("payfast_reference");--> statement-breakpoint
CREATE INDEX "payfast_itns_attention_idx" ON "payfast_itns" USING btree ("received_at") WHERE "payfast_itns"."resolved_at" is null and "payfast_itns"."outcome" in ('paid_twice', 'paid_after_cancel', 'paid_out_of_stock', 'wrong_amount', 'unknown_order', 'foreign_merchant', 'unconfirmed', 'source_refused', 'refund_in_payfast');