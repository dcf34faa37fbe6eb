-- Every write to the catalogue, whoever makes it (the admin API, the seed, plain SQL, another
-- instance), tells the listening catalogue caches (src/server/catalog/cache.ts) to drop their
-- copies. Statement level: one notification per statement, and PostgreSQL folds identical ones
-- of a transaction into one, delivered at commit.
CREATE FUNCTION "notify_catalog_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('catalog_changed', '');
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "products_notify_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();
--> statement-breakpoint
CREATE TRIGGER "categories_notify_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();
