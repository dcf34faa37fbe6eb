ALTER TABLE "shipments" ADD COLUMN "attention_resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "attention_resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_attention_resolved_by_users_id_fk" FOREIGN KEY ("attention_resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;