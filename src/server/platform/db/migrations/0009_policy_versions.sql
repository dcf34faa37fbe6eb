CREATE TABLE "policy_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"effective_date" date NOT NULL,
	"content_hash" text NOT NULL,
	"body" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terms_version_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "return_policy_version_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "privacy_version_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_versions_kind_version_key" ON "policy_versions" USING btree ("kind","version");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_terms_version_id_policy_versions_id_fk" FOREIGN KEY ("terms_version_id") REFERENCES "public"."policy_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_return_policy_version_id_policy_versions_id_fk" FOREIGN KEY ("return_policy_version_id") REFERENCES "public"."policy_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_privacy_version_id_policy_versions_id_fk" FOREIGN KEY ("privacy_version_id") REFERENCES "public"."policy_versions"("id") ON DELETE no action ON UPDATE no action;