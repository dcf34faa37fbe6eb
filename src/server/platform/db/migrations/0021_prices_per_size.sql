ALTER TABLE "products" ADD COLUMN "size_prices" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "size_pack_counts" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pack_unit" text;--> statement-breakpoint
-- Hand-written data migration (Drizzle cannot express data): the seeded products a shop has not
-- edited get their prices and packs per size, the figures of seedPacks in src/server/db/seed-data.ts
-- (docs/decisions/022-prices-per-size.md). A product whose price, sizes or per-size prices the
-- owner changed is left as it is. Order lines keep the unit price they were sold at.
UPDATE "products" SET "size_prices" = '{"Newborn (up to 4kg)":24999,"Size 1 (2-5kg)":25999}'::jsonb, "size_pack_counts" = '{"Newborn (up to 4kg)":108,"Size 1 (2-5kg)":100}'::jsonb, "pack_unit" = 'nappy', "price_cents" = 24999
  WHERE "name" = 'Snug & Dry Newborn Nappies' AND "price_cents" = 24999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Newborn (up to 4kg)","Size 1 (2-5kg)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Size 1 (2-5kg)":39999,"Size 2 (3-6kg)":39999,"Size 3 (4-9kg)":41999,"Size 4 (7-18kg)":43999,"Size 5 (11-25kg)":44999,"Size 6 (16kg+)":42999}'::jsonb, "size_pack_counts" = '{"Size 1 (2-5kg)":152,"Size 2 (3-6kg)":132,"Size 3 (4-9kg)":124,"Size 4 (7-18kg)":116,"Size 5 (11-25kg)":108,"Size 6 (16kg+)":102}'::jsonb, "pack_unit" = 'nappy', "price_cents" = 39999
  WHERE "name" = 'Snug & Dry Baby Nappies Value Pack' AND "price_cents" = 39999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Size 1 (2-5kg)","Size 2 (3-6kg)","Size 3 (4-9kg)","Size 4 (7-18kg)","Size 5 (11-25kg)","Size 6 (16kg+)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Size 3 (4-9kg)":45999,"Size 4 (7-18kg)":47999,"Size 5 (11-25kg)":48999}'::jsonb, "size_pack_counts" = '{"Size 3 (4-9kg)":136,"Size 4 (7-18kg)":124,"Size 5 (11-25kg)":116}'::jsonb, "pack_unit" = 'nappy', "price_cents" = 45999
  WHERE "name" = 'Snug & Dry Premium Nappies Jumbo Pack' AND "price_cents" = 45999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Size 3 (4-9kg)","Size 4 (7-18kg)","Size 5 (11-25kg)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Size 4 (7-18kg)":29999,"Size 5 (11-25kg)":30999,"Size 6 (16kg+)":29999}'::jsonb, "size_pack_counts" = '{"Size 4 (7-18kg)":84,"Size 5 (11-25kg)":76,"Size 6 (16kg+)":72}'::jsonb, "pack_unit" = 'nappy', "price_cents" = 29999
  WHERE "name" = 'Snug & Dry Overnight Nappies' AND "price_cents" = 29999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Size 4 (7-18kg)","Size 5 (11-25kg)","Size 6 (16kg+)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"S (3-6kg)":34999,"M (6-11kg)":36999,"L (9-14kg)":37999,"XL (12kg+)":37999}'::jsonb, "size_pack_counts" = '{"S (3-6kg)":120,"M (6-11kg)":104,"L (9-14kg)":92,"XL (12kg+)":90}'::jsonb, "pack_unit" = 'nappy', "price_cents" = 34999
  WHERE "name" = 'Snug & Dry Bamboo Eco Nappies' AND "price_cents" = 34999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["S (3-6kg)","M (6-11kg)","L (9-14kg)","XL (12kg+)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"S (7-13kg)":12999,"M (12-18kg)":12999,"L (16kg+)":12999}'::jsonb, "size_pack_counts" = '{"S (7-13kg)":12,"M (12-18kg)":11,"L (16kg+)":10}'::jsonb, "pack_unit" = 'nappy', "price_cents" = 12999
  WHERE "name" = 'Snug & Dry Swim Nappies' AND "price_cents" = 12999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["S (7-13kg)","M (12-18kg)","L (16kg+)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"64 wipes":3999}'::jsonb, "size_pack_counts" = '{"64 wipes":64}'::jsonb, "pack_unit" = 'wipe', "price_cents" = 3999
  WHERE "name" = 'Snug & Dry Sensitive Baby Wipes' AND "price_cents" = 3999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["64 wipes"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"3 x 64 wipes":9999}'::jsonb, "size_pack_counts" = '{"3 x 64 wipes":192}'::jsonb, "pack_unit" = 'wipe', "price_cents" = 9999
  WHERE "name" = 'Snug & Dry Baby Wipes Multipack' AND "price_cents" = 9999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["3 x 64 wipes"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Size 4 (9-15kg)":27999,"Size 5 (12-17kg)":27999,"Size 6 (15-25kg)":26999}'::jsonb, "size_pack_counts" = '{"Size 4 (9-15kg)":74,"Size 5 (12-17kg)":68,"Size 6 (15-25kg)":64}'::jsonb, "pack_unit" = 'pant', "price_cents" = 26999
  WHERE "name" = 'Snug & Dry Pull-Up Pants' AND "price_cents" = 27999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Size 4 (9-15kg)","Size 5 (12-17kg)","Size 6 (15-25kg)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Size 4 (9-15kg)":44999,"Size 5 (12-17kg)":45999,"Size 6 (15-25kg)":45999}'::jsonb, "size_pack_counts" = '{"Size 4 (9-15kg)":124,"Size 5 (12-17kg)":112,"Size 6 (15-25kg)":110}'::jsonb, "pack_unit" = 'pant', "price_cents" = 44999
  WHERE "name" = 'Snug & Dry Pull-Up Pants Jumbo Pack' AND "price_cents" = 44999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Size 4 (9-15kg)","Size 5 (12-17kg)","Size 6 (15-25kg)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Size 5 (12-17kg)":24999,"Size 6 (15-25kg)":24999}'::jsonb, "size_pack_counts" = '{"Size 5 (12-17kg)":60,"Size 6 (15-25kg)":56}'::jsonb, "pack_unit" = 'pant', "price_cents" = 24999
  WHERE "name" = 'Snug & Dry Potty Training Pants' AND "price_cents" = 24999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Size 5 (12-17kg)","Size 6 (15-25kg)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"4-7 years (17-30kg)":18999,"8-15 years (27-57kg)":19999}'::jsonb, "size_pack_counts" = '{"4-7 years (17-30kg)":16,"8-15 years (27-57kg)":13}'::jsonb, "pack_unit" = 'pant', "price_cents" = 18999
  WHERE "name" = 'Snug & Dry Night Pants' AND "price_cents" = 18999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["4-7 years (17-30kg)","8-15 years (27-57kg)"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"80 x 90cm":13999}'::jsonb, "size_pack_counts" = '{"80 x 90cm":10}'::jsonb, "pack_unit" = 'mat', "price_cents" = 13999
  WHERE "name" = 'Snug & Dry Kids Disposable Bed Mats' AND "price_cents" = 13999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["80 x 90cm"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"S":26999,"M":26999,"L":27999,"XL":27999}'::jsonb, "size_pack_counts" = '{"S":28,"M":26,"L":24,"XL":20}'::jsonb, "pack_unit" = 'pant', "price_cents" = 26999
  WHERE "name" = 'Snug & Dry Adult Pants' AND "price_cents" = 26999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["S","M","L","XL"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"M":31999,"L":32999,"XL":33999}'::jsonb, "size_pack_counts" = '{"M":28,"L":24,"XL":20}'::jsonb, "pack_unit" = 'brief', "price_cents" = 31999
  WHERE "name" = 'Snug & Dry Adult Briefs Super' AND "price_cents" = 31999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["M","L","XL"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"M":29999,"L":30999,"XL":31999}'::jsonb, "size_pack_counts" = '{"M":20,"L":18,"XL":16}'::jsonb, "pack_unit" = 'pant', "price_cents" = 29999
  WHERE "name" = 'Snug & Dry Adult Night Pants' AND "price_cents" = 29999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["M","L","XL"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Light":8999,"Moderate":8999,"Heavy":9499}'::jsonb, "size_pack_counts" = '{"Light":28,"Moderate":24,"Heavy":20}'::jsonb, "pack_unit" = 'pad', "price_cents" = 8999
  WHERE "name" = 'Snug & Dry Bladder Control Pads' AND "price_cents" = 8999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Light","Moderate","Heavy"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"One size":9499}'::jsonb, "size_pack_counts" = '{"One size":24}'::jsonb, "pack_unit" = 'guard', "price_cents" = 9499
  WHERE "name" = 'Snug & Dry Men''s Guards' AND "price_cents" = 9499 AND "size_prices" = '{}'::jsonb AND "sizes" = '["One size"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"60 x 60cm":15999,"60 x 90cm":17999}'::jsonb, "size_pack_counts" = '{"60 x 60cm":30,"60 x 90cm":25}'::jsonb, "pack_unit" = 'underpad', "price_cents" = 15999
  WHERE "name" = 'Snug & Dry Disposable Underpads' AND "price_cents" = 15999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["60 x 60cm","60 x 90cm"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"85 x 90cm":22999}'::jsonb, "size_pack_counts" = '{"85 x 90cm":1}'::jsonb, "pack_unit" = 'pad', "price_cents" = 22999
  WHERE "name" = 'Snug & Dry Washable Bed Pad' AND "price_cents" = 22999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["85 x 90cm"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Regular":4499,"Super":4499,"Night":4999}'::jsonb, "size_pack_counts" = '{"Regular":16,"Super":14,"Night":10}'::jsonb, "pack_unit" = 'pad', "price_cents" = 4499
  WHERE "name" = 'Snug & Dry Ultra Thin Pads' AND "price_cents" = 4499 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Regular","Super","Night"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Night":5499,"Extra Long Night":5999}'::jsonb, "size_pack_counts" = '{"Night":12,"Extra Long Night":10}'::jsonb, "pack_unit" = 'pad', "price_cents" = 5499
  WHERE "name" = 'Snug & Dry Maxi Night Pads' AND "price_cents" = 5499 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Night","Extra Long Night"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Normal":3499,"Long":3999}'::jsonb, "size_pack_counts" = '{"Normal":40,"Long":32}'::jsonb, "pack_unit" = 'liner', "price_cents" = 3499
  WHERE "name" = 'Snug & Dry Panty Liners' AND "price_cents" = 3499 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Normal","Long"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Regular":5999,"Super":5999,"Super Plus":6499}'::jsonb, "size_pack_counts" = '{"Regular":32,"Super":24,"Super Plus":20}'::jsonb, "pack_unit" = 'tampon', "price_cents" = 5999
  WHERE "name" = 'Snug & Dry Tampons' AND "price_cents" = 5999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Regular","Super","Super Plus"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"XS":18999,"S":18999,"M":18999,"L":18999,"XL":18999,"XXL":18999}'::jsonb, "size_pack_counts" = '{"XS":1,"S":1,"M":1,"L":1,"XL":1,"XXL":1}'::jsonb, "pack_unit" = 'pair', "price_cents" = 18999
  WHERE "name" = 'Snug & Dry Period Underwear' AND "price_cents" = 18999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["XS","S","M","L","XL","XXL"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"40 pads":8999}'::jsonb, "size_pack_counts" = '{"40 pads":40}'::jsonb, "pack_unit" = 'pad', "price_cents" = 8999
  WHERE "name" = 'Snug & Dry Pads Value Box' AND "price_cents" = 8999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["40 pads"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Regular":6999,"Super":6999}'::jsonb, "size_pack_counts" = '{"Regular":14,"Super":12}'::jsonb, "pack_unit" = 'pad', "price_cents" = 6999
  WHERE "name" = 'Snug & Dry Organic Cotton Pads' AND "price_cents" = 6999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Regular","Super"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"150 bags":3999}'::jsonb, "size_pack_counts" = '{"150 bags":150}'::jsonb, "pack_unit" = 'bag', "price_cents" = 3999
  WHERE "name" = 'Snug & Dry Nappy Disposal Bags' AND "price_cents" = 3999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["150 bags"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"Single":29999,"Double":34999,"Queen":37999,"King":41999}'::jsonb, "size_pack_counts" = '{}'::jsonb, "pack_unit" = NULL, "price_cents" = 29999
  WHERE "name" = 'Snug & Dry Waterproof Mattress Protector' AND "price_cents" = 29999 AND "size_prices" = '{}'::jsonb AND "sizes" = '["Single","Double","Queen","King"]'::jsonb;--> statement-breakpoint
UPDATE "products" SET "size_prices" = '{"48 wipes":6499}'::jsonb, "size_pack_counts" = '{"48 wipes":48}'::jsonb, "pack_unit" = 'wipe', "price_cents" = 6499
  WHERE "name" = 'Snug & Dry Adult Wash Wipes' AND "price_cents" = 6499 AND "size_prices" = '{}'::jsonb AND "sizes" = '["48 wipes"]'::jsonb;
