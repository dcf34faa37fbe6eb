ALTER TABLE "plan_charges" ADD COLUMN "pf_payment_id" text;--> statement-breakpoint
ALTER TABLE "plan_charges" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plan_charges" ADD COLUMN "attempted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "plan_charges_pf_payment_id_idx" ON "plan_charges" USING btree ("pf_payment_id") WHERE "plan_charges"."pf_payment_id" is not null;--> statement-breakpoint
-- Hand-written: the e-mail of a box that could not be charged (the kinds' check is the outbox's list, src/domain/schemas/emails.ts).
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'email_confirm', 'signup_attempt', 'login_failures', 'plan_next_box', 'delivery_update', 'plan_charge_problem'));
