-- hand-written:
-- Shop by size's weight filter (docs/decisions/048-shop-by-size.md): the union of the weight ranges
-- (grams, both ends included) of the sizes a product lists, for a product sized by weight; empty
-- otherwise. A range that is not two numbers from 0 to 1,000,000 with min <= max is left out, so a
-- row written by plain SQL never fails on it. IMMUTABLE, so a generated column can use it.
CREATE FUNCTION product_fit_grams(fit_measure text, size_fits jsonb, sizes jsonb)
RETURNS int4multirange LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select coalesce(range_agg(int4range(low, high, '[]')), '{}'::int4multirange)
  from (
    select
      case when jsonb_typeof(fit -> 'min') = 'number' and (fit ->> 'min')::numeric between 0 and 1000000
        then ceil((fit ->> 'min')::numeric)::integer end as low,
      case when jsonb_typeof(fit -> 'max') = 'number' and (fit ->> 'max')::numeric between 0 and 1000000
        then floor((fit ->> 'max')::numeric)::integer end as high
    from jsonb_each(case when jsonb_typeof(size_fits) = 'object' then size_fits else '{}'::jsonb end)
      as each_size(size, fit)
    where fit_measure = 'weight' and sizes ? size and jsonb_typeof(fit) = 'object'
  ) as ranges
  where low <= high
$$;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fit_grams" "int4multirange" GENERATED ALWAYS AS (product_fit_grams(fit_measure, size_fits, sizes)) STORED;--> statement-breakpoint
CREATE INDEX "products_fit_grams_idx" ON "products" USING gist ("fit_grams");