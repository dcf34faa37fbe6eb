ALTER TABLE "promo_redemptions" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD COLUMN "asked_from" text;--> statement-breakpoint
CREATE INDEX "promo_redemptions_code_email_idx" ON "promo_redemptions" USING btree ("promo_code_id","email");--> statement-breakpoint
CREATE INDEX "stock_alerts_waiting_idx" ON "stock_alerts" USING btree ("asked_from","created_at") WHERE "stock_alerts"."confirmed_at" is null;--> statement-breakpoint
-- hand-written (proven-email)
-- The outbox takes the sign-up's proof of address and the note to an address someone tried to register again (the check is hand-written since 0004; the last to set it was 0020).
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'email_confirm', 'signup_attempt'));--> statement-breakpoint
-- Uses of codes already held or paid by accounts whose address is proven count by that address too (docs/decisions/041).
UPDATE "promo_redemptions" SET "email" = lower(u."email")
FROM "users" u
WHERE u."id" = "promo_redemptions"."user_id" AND u."email_verified_at" IS NOT NULL AND u."closed_at" IS NULL;
