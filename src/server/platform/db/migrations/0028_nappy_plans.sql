CREATE TABLE "plan_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"delivery_date" date NOT NULL,
	"status" text NOT NULL,
	"order_id" uuid,
	"amount_cents" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"payfast_response" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "plan_charges_status_known" CHECK ("plan_charges"."status" in ('charging', 'paid', 'declined', 'unknown', 'skipped', 'out_of_stock', 'reminded'))
);
--> statement-breakpoint
CREATE TABLE "plan_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plan_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"size" text NOT NULL,
	"quantity" integer NOT NULL,
	"last_unit_price_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_lines_quantity_range" CHECK ("plan_lines"."quantity" between 1 and 999)
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending_first_payment' NOT NULL,
	"mode" text NOT NULL,
	"cadence_weeks" smallint NOT NULL,
	"next_date" date NOT NULL,
	"paused_until" date,
	"customer_email" text NOT NULL,
	"delivery_name" text NOT NULL,
	"delivery_phone" text NOT NULL,
	"delivery_address" text NOT NULL,
	"delivery_city" text NOT NULL,
	"delivery_province" text NOT NULL,
	"delivery_zip_code" text NOT NULL,
	"delivery_suburb" text DEFAULT '' NOT NULL,
	"delivery_complex" text DEFAULT '' NOT NULL,
	"delivery_instructions" text DEFAULT '' NOT NULL,
	"delivery_alt_phone" text DEFAULT '' NOT NULL,
	"payfast_token" text,
	"token_stored_at" timestamp with time zone,
	"token_cancelled_at" timestamp with time zone,
	"created_from_order_id" uuid NOT NULL,
	"terms_version_id" integer,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_status_known" CHECK ("plans"."status" in ('pending_first_payment', 'active', 'paused', 'needs_card', 'cancelled')),
	CONSTRAINT "plans_mode_known" CHECK ("plans"."mode" in ('card', 'reminder')),
	CONSTRAINT "plans_cadence_range" CHECK ("plans"."cadence_weeks" between 2 and 8),
	CONSTRAINT "plans_paused_until" CHECK (("plans"."status" = 'paused') = ("plans"."paused_until" is not null))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "plan_saving_bp" integer;--> statement-breakpoint
ALTER TABLE "plan_charges" ADD CONSTRAINT "plan_charges_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_charges" ADD CONSTRAINT "plan_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_lines" ADD CONSTRAINT "plan_lines_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_lines" ADD CONSTRAINT "plan_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_created_from_order_id_orders_id_fk" FOREIGN KEY ("created_from_order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_terms_version_id_policy_versions_id_fk" FOREIGN KEY ("terms_version_id") REFERENCES "public"."policy_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_charges_plan_date_key" ON "plan_charges" USING btree ("plan_id","delivery_date");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_charges_order_key" ON "plan_charges" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "plan_charges_status_idx" ON "plan_charges" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_lines_plan_product_size_key" ON "plan_lines" USING btree ("plan_id","product_id","size");--> statement-breakpoint
CREATE INDEX "plan_lines_product_id_idx" ON "plan_lines" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "plans_user_id_idx" ON "plans" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "plans_status_next_date_idx" ON "plans" USING btree ("status","next_date");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_created_from_order_key" ON "plans" USING btree ("created_from_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_payfast_token_key" ON "plans" USING btree ("payfast_token") WHERE "plans"."payfast_token" is not null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_plan_saving_range" CHECK ("products"."plan_saving_bp" between 0 and 5000);--> statement-breakpoint
-- Hand-written: the "your next box" e-mail (the kinds' check is the outbox's list, src/domain/schemas/emails.ts),
-- and the key of its signed skip links (shop_keys, as stock_alert_links).
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_known";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_known" CHECK ("kind" in ('order_confirmation', 'order_shipped', 'order_refunded', 'return_update', 'password_reset', 'account_changed', 'owner_alert', 'email_change', 'stock_alert_confirm', 'back_in_stock', 'email_confirm', 'signup_attempt', 'login_failures', 'plan_next_box'));--> statement-breakpoint
INSERT INTO "shop_keys" ("name", "key") VALUES (
	'plan_links',
	encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex')
) ON CONFLICT ("name") DO NOTHING;
