-- hand-written (login-failures)
-- The outbox takes the "wrong passwords tried" notice to an account's holder (the kinds' check is
-- hand-written since 0004; the last to set it was 0020). A branch adding another kind merges this list.
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'login_failures'));
