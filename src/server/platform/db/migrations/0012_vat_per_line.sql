CREATE TABLE "vat_rates" (
	"vat_class" text NOT NULL,
	"effective_from" date NOT NULL,
	"rate_bp" integer NOT NULL,
	CONSTRAINT "vat_rates_vat_class_effective_from_pk" PRIMARY KEY("vat_class","effective_from"),
	CONSTRAINT "vat_rates_class_known" CHECK ("vat_rates"."vat_class" in ('standard', 'zero')),
	CONSTRAINT "vat_rates_rate_range" CHECK ("vat_rates"."rate_bp" between 0 and 10000)
);
--> statement-breakpoint
-- hand-written (docs/decisions/017-vat-per-line.md): the rates in force, the one function that reads
-- them, and the data of orders and products that existed before.
INSERT INTO "vat_rates" ("vat_class", "effective_from", "rate_bp") VALUES
	('standard', '2018-04-01', 1500),
	('zero', '2019-04-01', 0);
--> statement-breakpoint
CREATE FUNCTION vat_rate(class text, day date) RETURNS integer LANGUAGE sql STABLE AS $$
	select rate_bp from vat_rates where vat_class = class and effective_from <= day
	order by effective_from desc limit 1
$$;
--> statement-breakpoint
-- Orders placed before were invoiced as standard-rated at 15%, the VAT rounded once on the whole
-- amount: their lines, delivery fee and rounding keep what their documents said. The defaults go
-- again, so every new line must say its class and rate; new orders round per line.
ALTER TABLE "order_items" ADD COLUMN "vat_class" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vat_rate_bp" integer DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_vat_rate_bp" integer DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "vat_class" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "vat_rate_bp" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "delivery_vat_rate_bp" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_rounding" text DEFAULT 'order' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "vat_rounding" SET DEFAULT 'line';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_vat_rounding_known" CHECK ("vat_rounding" in ('line', 'order'));--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "vat_class" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_vat_class_known" CHECK ("order_items"."vat_class" in ('standard', 'zero'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_vat_class_known" CHECK ("products"."vat_class" in ('standard', 'zero'));--> statement-breakpoint
-- The seed's pads and pantyliners are zero-rated (Schedule 2 Part C); its tampons and period
-- underwear (SARS BGR 49), and the adult category's incontinence pads, stay standard-rated.
UPDATE "products" SET "vat_class" = 'zero'
WHERE "category_id" IN (SELECT "id" FROM "categories" WHERE lower("name") = 'pads')
	AND "name" ~* '(pads?|liners?)\M'
	AND "name" !~* '(tampon|cup|underwear|wipe|incontinence|bladder)';
