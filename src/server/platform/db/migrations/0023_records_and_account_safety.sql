CREATE TABLE "issued_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"order_id" uuid NOT NULL,
	"refund_id" uuid,
	"replaces_number" integer,
	"data" jsonb NOT NULL,
	"frozen" text DEFAULT 'issue' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"first_downloaded_at" timestamp with time zone,
	CONSTRAINT "issued_documents_kind_known" CHECK ("issued_documents"."kind" in ('invoice', 'credit_note')),
	CONSTRAINT "issued_documents_credit_note_refund" CHECK (("issued_documents"."kind" = 'credit_note') = ("issued_documents"."refund_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "launch_checklist_ticks" (
	"item_id" text PRIMARY KEY NOT NULL,
	"done" boolean NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by_id" uuid,
	"changed_by_username" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_lines" (
	"refund_id" uuid NOT NULL,
	"order_item_id" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "refund_lines_refund_id_order_item_id_pk" PRIMARY KEY("refund_id","order_item_id"),
	CONSTRAINT "refund_lines_quantity_not_negative" CHECK ("refund_lines"."quantity" >= 0),
	CONSTRAINT "refund_lines_amount_not_negative" CHECK ("refund_lines"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "vat_basis" text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "delivery_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "received_on" date;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "received_basis" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "password_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD COLUMN "asked_from" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "issued_documents" ADD CONSTRAINT "issued_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issued_documents" ADD CONSTRAINT "issued_documents_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "issued_documents_kind_number_key" ON "issued_documents" USING btree ("kind","number");--> statement-breakpoint
CREATE UNIQUE INDEX "issued_documents_refund_key" ON "issued_documents" USING btree ("refund_id");--> statement-breakpoint
CREATE UNIQUE INDEX "issued_documents_one_invoice_per_order" ON "issued_documents" USING btree ("order_id") WHERE "issued_documents"."kind" = 'invoice' and "issued_documents"."replaces_number" is null;--> statement-breakpoint
CREATE INDEX "issued_documents_order_id_idx" ON "issued_documents" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refund_lines_order_item_idx" ON "refund_lines" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "promo_redemptions_code_email_idx" ON "promo_redemptions" USING btree ("promo_code_id","email");--> statement-breakpoint
CREATE INDEX "stock_alerts_waiting_idx" ON "stock_alerts" USING btree ("asked_from","created_at") WHERE "stock_alerts"."confirmed_at" is null;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_vat_basis_known" CHECK ("refunds"."vat_basis" in ('legacy', 'lines', 'proportional'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_delivery_within_amount" CHECK ("refunds"."delivery_cents" between 0 and "refunds"."amount_cents");--> statement-breakpoint
-- hand-written: the outbox takes the sign-up's proof of address, the note to an address someone
-- tried to register again, and the "wrong passwords tried" notice (the kinds' check is
-- hand-written since 0004; the last to set it was 0020).
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'email_confirm', 'signup_attempt', 'login_failures'));--> statement-breakpoint
-- hand-written: uses of codes already held or paid by accounts whose address is proven count by
-- that address too (docs/decisions/041).
UPDATE "promo_redemptions" SET "email" = lower(u."email")
FROM "users" u
WHERE u."id" = "promo_redemptions"."user_id" AND u."email_verified_at" IS NOT NULL AND u."closed_at" IS NULL;
