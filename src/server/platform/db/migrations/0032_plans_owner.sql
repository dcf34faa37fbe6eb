-- Hand-written: the e-mail telling a customer the shop paused or cancelled their plan (the kinds'
-- check is the outbox's list, src/domain/schemas/emails.ts).
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'email_confirm', 'signup_attempt', 'login_failures', 'plan_next_box', 'delivery_update', 'plan_charge_problem', 'plan_changed_by_shop'));
