CREATE TABLE "launch_checklist_ticks" (
	"item_id" text PRIMARY KEY NOT NULL,
	"done" boolean NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by_id" uuid,
	"changed_by_username" text NOT NULL
);
