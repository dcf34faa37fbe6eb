ALTER TABLE "return_requests" ADD COLUMN "received_on" date;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "received_basis" text;