import { and, asc, eq, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Product } from "#domain/schemas/catalog.js";
import type {
  CatalogPage,
  CatalogSearchQuery,
  ProductWithRelated,
  SizeFacets,
} from "#domain/schemas/catalog-search.js";
import { sortSizeNames } from "#domain/shop-by-size.js";
import type { Database } from "../platform/db/client.js";
import { categories, products } from "../platform/db/schema.js";
import { badRequest } from "../platform/errors.js";
import { productColumns, toProduct } from "./queries.js";

/**
 * What the storefront's search looks in for a product's own name: exactly the expression of the
 * trigram index products_name_trgm_idx (migration 0022), or the index goes unused.
 */
export const PRODUCT_SEARCH_TEXT = sql`lower(${products.name})`;

/** Related products on a product's own page: others of its category. */
export const RELATED_PRODUCTS = 4;

/** Sorted last in either direction: the unit sort's products without pack counts (docs/product.md §9). */
const UNIT_LAST_ASC = 2_147_483_647;
const UNIT_LAST_DESC = -1;

/** The text of a partial match: `%q%` with LIKE's own wildcards taken literally. */
function containing(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A key of the order: the expression, its direction, and the last row's value of it. */
interface OrderKey {
  expression: SQL;
  descending: boolean;
}

/**
 * The order of each sort, as the browser sorted before (src/domain/catalog.ts): name (lower case,
 * then id); price or price per unit, then name ascending, then id. Every order ends on the id, so
 * a cursor names exactly one place and no row is skipped or shown twice.
 */
function orderKeys(sort: CatalogSearchQuery["sort"], descending: boolean): OrderKey[] {
  const name = sql`lower(${products.name})`;
  if (sort === "name") {
    return [
      { expression: name, descending },
      { expression: sql`${products.id}`, descending },
    ];
  }
  const key =
    sort === "price"
      ? sql`${products.priceCents}`
      : sql`coalesce(${products.unitCents}, ${descending ? UNIT_LAST_DESC : UNIT_LAST_ASC}::integer)`;
  return [
    { expression: key, descending },
    { expression: name, descending: false },
    { expression: sql`${products.id}`, descending: false },
  ];
}

// --- the cursor: the last row's sort key, lower-case name and id, and the order it belongs to ------

const cursorShape = z.object({
  s: z.enum(["name", "price", "unit"]),
  o: z.enum(["asc", "desc"]),
  k: z.number().int().nullable(),
  n: z.string(),
  i: z.uuid(),
});
type Cursor = z.infer<typeof cursorShape>;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string, query: CatalogSearchQuery): Cursor {
  let parsed: ReturnType<typeof cursorShape.safeParse> | null = null;
  try {
    parsed = cursorShape.safeParse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) throw badRequest("cursor is not valid: give back a nextCursor as it was received");
  if (
    parsed.data.s !== query.sort ||
    parsed.data.o !== query.order ||
    (query.sort !== "name") !== (parsed.data.k !== null)
  ) {
    throw badRequest("cursor belongs to another sort: start again without a cursor");
  }
  return parsed.data;
}

/** Rows strictly after the cursor in the order of `keys`: (k1 after v1) or (k1 = v1 and (k2 after v2 ...)). */
function after(keys: OrderKey[], values: unknown[]): SQL {
  const sameDirection = keys.every((key) => key.descending === keys[0]?.descending);
  if (sameDirection) {
    // One row comparison, which the index on the same columns serves as a range.
    const columns = sql.join(
      keys.map((key) => key.expression),
      sql`, `,
    );
    const row = sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
    return keys[0]?.descending ? sql`(${columns}) < (${row})` : sql`(${columns}) > (${row})`;
  }
  const [key, ...rest] = keys;
  const [value, ...restValues] = values;
  if (!key) return sql`false`;
  const beyond = key.descending ? sql`${key.expression} < ${value}` : sql`${key.expression} > ${value}`;
  if (!rest.length) return beyond;
  return sql`(${beyond} or (${key.expression} = ${value} and ${after(rest, restValues)}))`;
}

/**
 * Shop by size (docs/decisions/048-shop-by-size.md), ANDed with the rest of the filter: a weight in
 * grams that one of a product's listed sizes fits (`fit_grams`, the union of its weight ranges, ends
 * included, served by the GiST index products_fit_grams_idx); a size's name the product lists,
 * exactly; at least an absorbency level (a product without one never matches).
 */
function sizeConditions(query: CatalogSearchQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.weight !== undefined) {
    conditions.push(sql`${products.fitGrams} @> ${query.weight}::integer`);
  }
  if (query.size !== undefined) conditions.push(sql`${products.sizes} ? ${query.size}`);
  if (query.absorbency !== undefined) conditions.push(sql`${products.absorbency} >= ${query.absorbency}`);
  return conditions;
}

/**
 * The filter of a search: the category, and a fragment of the name or of the category's name. The
 * categories whose name holds the fragment (a handful of rows) are looked up first, so the filter
 * is the trigram index's matches OR a list of category ids, which the planner serves with a
 * BitmapOr of two indexes instead of reading every product.
 */
async function matching(db: Database, query: CatalogSearchQuery): Promise<SQL | undefined> {
  const conditions = sizeConditions(query);
  if (query.category !== undefined) {
    conditions.push(
      sql`${products.categoryId} = (select ${categories.id} from ${categories} where lower(${categories.name}) = ${query.category.toLowerCase()})`,
    );
  }
  if (query.q) {
    const pattern = containing(query.q);
    const named = await db
      .select({ id: categories.id })
      .from(categories)
      .where(sql`lower(${categories.name}) like ${pattern}`);
    const byName = sql`${PRODUCT_SEARCH_TEXT} like ${pattern}`;
    conditions.push(
      named.length
        ? (or(
            byName,
            inArray(
              products.categoryId,
              named.map((row) => row.id),
            ),
          ) ?? byName)
        : byName,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * One page of the storefront's products for a search, category and sort, by keyset: the rows after
 * the cursor's (sort key, name, id). A product the admin adds meanwhile is on a later page when it
 * sorts after the cursor and on none when before, never shifting a page (nothing shown twice or
 * missed). `total` counts every match, for the count line.
 */
export async function searchProducts(db: Database, query: CatalogSearchQuery): Promise<CatalogPage> {
  const descending = query.order === "desc";
  const keys = orderKeys(query.sort, descending);
  const cursor = query.cursor ? decodeCursor(query.cursor, query) : null;
  const filter = await matching(db, query);
  const where = cursor
    ? and(filter, after(keys, query.sort === "name" ? [cursor.n, cursor.i] : [cursor.k, cursor.n, cursor.i]))
    : filter;
  const sortKey = keys[0]?.expression ?? sql`null`;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ ...productColumns, sortKey: sql<unknown>`${sortKey}`, sortName: sql<string>`lower(${products.name})` })
      .from(products)
      .innerJoin(categories, eq(products.categoryId, categories.id))
      .where(where)
      .orderBy(...keys.map((key) => (key.descending ? sql`${key.expression} desc` : sql`${key.expression} asc`)))
      .limit(query.limit + 1),
    db.select({ total: sql<number>`count(*)::integer` }).from(products).where(filter),
  ]);
  const more = rows.length > query.limit;
  const shown = more ? rows.slice(0, query.limit) : rows;
  const last = shown.at(-1);
  return {
    products: shown.map(({ sortKey: _key, sortName: _name, ...row }) => toProduct(row)),
    total: counted?.total ?? 0,
    nextCursor:
      more && last
        ? encodeCursor({
            s: query.sort,
            o: query.order,
            k: query.sort === "name" ? null : Number(last.sortKey),
            n: last.sortName,
            i: last.id,
          })
        : null,
  };
}

/**
 * Which "Shop by size" controls the products of a category (or of all) can answer: whether some
 * listed size has a weight range the weight filter reads (`fit_grams`), the names of the sizes of
 * products not sized by weight, and whether some product has an absorbency level. One pass over
 * the category's products (5,000 at most in practice, cached until the catalogue changes).
 */
export async function findSizeFacets(db: Database, category: string | undefined): Promise<SizeFacets> {
  const inCategory =
    category === undefined
      ? sql`true`
      : sql`${products.categoryId} = (select ${categories.id} from ${categories} where lower(${categories.name}) = ${category.toLowerCase()})`;
  const { rows } = await db.execute<{
    by_weight: boolean | null;
    by_absorbency: boolean | null;
    names: string[] | null;
  }>(sql`
    select
      bool_or(${products.fitGrams} <> '{}'::int4multirange) as by_weight,
      bool_or(${products.absorbency} is not null) as by_absorbency,
      (select array_agg(distinct size_name) from ${products}, jsonb_array_elements_text(${products.sizes}) as size_name
        where ${inCategory} and ${products.fitMeasure} is distinct from 'weight') as names
    from ${products} where ${inCategory}`);
  const [row] = rows;
  return {
    byWeight: row?.by_weight === true,
    sizeNames: sortSizeNames(row?.names ?? []),
    byAbsorbency: row?.by_absorbency === true,
  };
}

/** A product by its slug, with a few others of its category (by name), or null. */
export async function findProductBySlug(db: Database, slug: string): Promise<ProductWithRelated | null> {
  const select = () =>
    db.select(productColumns).from(products).innerJoin(categories, eq(products.categoryId, categories.id));
  const [row] = await select().where(eq(products.slug, slug));
  if (!row) return null;
  const product: Product = toProduct(row);
  const related = await select()
    .where(
      and(
        eq(products.categoryId, sql`(select category_id from products where id = ${row.id})`),
        ne(products.id, row.id),
      ),
    )
    .orderBy(asc(sql`lower(${products.name})`), asc(products.id))
    .limit(RELATED_PRODUCTS);
  return { product, related: related.map(toProduct) };
}
