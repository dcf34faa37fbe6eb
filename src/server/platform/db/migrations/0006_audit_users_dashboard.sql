CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_username" text,
	"address" text,
	"request_id" text,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "order_stat_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"orders" integer NOT NULL,
	"total_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_stats" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"orders" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	CONSTRAINT "order_stats_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_by_user_id" uuid;--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_type","subject_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_by_user_id_users_id_fk" FOREIGN KEY ("paid_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_created_at_id_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
-- hand-written: trigram indexes for the admin's partial, case-insensitive searches (users by name,
-- username, e-mail or phone; the audit trail by actor, action, subject or address), and the
-- dashboard's counters (docs/decisions/011-audit-trail.md, src/server/admin/dashboard.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((lower("username" || ' ' || "full_name" || ' ' || "email" || ' ' || "phone")) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "audit_log_search_trgm_idx" ON "audit_log" USING gin ((lower(coalesce("actor_username", '') || ' ' || "action" || ' ' || coalesce("subject_id", '') || ' ' || coalesce("address", ''))) gin_trgm_ops);
--> statement-breakpoint
-- Each statement that writes orders appends what it changed per South African day and status.
-- Inserts only: no order transaction ever waits for another's counter row (the job
-- compact-order-stats folds them into order_stats).
CREATE FUNCTION "order_stats_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		DELETE FROM "order_stats";
		DELETE FROM "order_stat_changes";
	ELSIF TG_OP = 'INSERT' THEN
		INSERT INTO "order_stat_changes" ("day", "status", "orders", "total_cents")
		SELECT ("created_at" AT TIME ZONE 'Africa/Johannesburg')::date, "status", count(*), sum("total_cents")
		FROM "new_rows" GROUP BY 1, 2;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "order_stat_changes" ("day", "status", "orders", "total_cents")
		SELECT ("created_at" AT TIME ZONE 'Africa/Johannesburg')::date, "status", -count(*), -sum("total_cents")
		FROM "old_rows" GROUP BY 1, 2;
	ELSE
		INSERT INTO "order_stat_changes" ("day", "status", "orders", "total_cents")
		SELECT "day", "status", sum("n"), sum("cents") FROM (
			SELECT ("created_at" AT TIME ZONE 'Africa/Johannesburg')::date AS "day", "status", 1 AS "n", "total_cents"::bigint AS "cents" FROM "new_rows"
			UNION ALL
			SELECT ("created_at" AT TIME ZONE 'Africa/Johannesburg')::date, "status", -1, -"total_cents"::bigint FROM "old_rows"
		) AS "changes"
		GROUP BY "day", "status"
		HAVING sum("n") <> 0 OR sum("cents") <> 0;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
-- No order written between the count below and the triggers may be missed.
LOCK TABLE "orders" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "order_stats" ("day", "status", "orders", "total_cents")
SELECT ("created_at" AT TIME ZONE 'Africa/Johannesburg')::date, "status", count(*), sum("total_cents")
FROM "orders" GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER "orders_stats_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS "new_rows"
	FOR EACH STATEMENT EXECUTE FUNCTION "order_stats_record"();
--> statement-breakpoint
CREATE TRIGGER "orders_stats_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
	FOR EACH STATEMENT EXECUTE FUNCTION "order_stats_record"();
--> statement-breakpoint
CREATE TRIGGER "orders_stats_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS "old_rows"
	FOR EACH STATEMENT EXECUTE FUNCTION "order_stats_record"();
--> statement-breakpoint
CREATE TRIGGER "orders_stats_truncate" AFTER TRUNCATE ON "orders"
	FOR EACH STATEMENT EXECUTE FUNCTION "order_stats_record"();
