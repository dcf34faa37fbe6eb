CREATE TABLE "payfast_emulator_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"subscription_type" integer NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"recurring_amount_cents" integer,
	"frequency" integer,
	"cycles" integer,
	"run_date" text,
	"m_payment_id" text DEFAULT '' NOT NULL,
	"item_name" text DEFAULT '' NOT NULL,
	"name_first" text DEFAULT '' NOT NULL,
	"name_last" text DEFAULT '' NOT NULL,
	"email_address" text DEFAULT '' NOT NULL,
	"notify_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payfast_emulator_payments" ADD COLUMN "token" text;