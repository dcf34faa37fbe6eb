ALTER TABLE "audit_log" ADD COLUMN "client_request_id" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "repeat_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "fold_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_fold_key" ON "audit_log" USING btree ("fold_key") WHERE "audit_log"."fold_key" is not null;