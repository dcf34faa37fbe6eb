ALTER TABLE "backup_runs" ADD COLUMN "copy_key" text;--> statement-breakpoint
ALTER TABLE "backup_runs" ADD COLUMN "copy_finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_runs" ADD COLUMN "copy_error" text;