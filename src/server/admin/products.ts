import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type ProductValues, productInput } from "../../domain/schemas/catalog.js";
import { uuidParam } from "../../domain/schemas/common.js";
import { findProduct } from "../catalog/queries.js";
import type { Database } from "../db/client.js";
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from "../db/errors.js";
import { categories, products } from "../db/schema.js";
import { badRequest, notFound } from "../errors.js";

async function categoryIdByName(db: Database, name: string): Promise<string> {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(sql`lower(${categories.name})`, name.toLowerCase()));
  if (!row) throw badRequest("category must be one of the categories");
  return row.id;
}

/** The columns of a product from the validated form: per-size maps keep only the sizes in the list. */
async function productRow(db: Database, values: ProductValues) {
  const sizeImages: Record<string, string> = {};
  const sizeOutOfStock: Record<string, boolean> = {};
  for (const size of values.sizes) {
    const image = values.sizeImages[size];
    if (image) sizeImages[size] = image;
    if (values.sizeOutOfStock[size]) sizeOutOfStock[size] = true;
  }
  return {
    name: values.name,
    categoryId: await categoryIdByName(db, values.category),
    priceCents: values.price,
    image: values.image,
    description: values.description,
    sizes: values.sizes,
    sizeImages,
    sizeOutOfStock,
    outOfStock: values.outOfStock,
    promoText: values.promoText,
  };
}

/** The category was deleted between our look-up and the write: the foreign key refuses it. */
function categoryGone(error: unknown): never {
  if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw badRequest("category must be one of the categories");
  throw error;
}

/** /api/admin/products: answers the product in the wire shape of GET /api/products. */
export const adminProductRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/products", { schema: { body: productInput } }, async (request, reply) => {
    const [created] = await app.db
      .insert(products)
      .values(await productRow(app.db, request.body))
      .returning({ id: products.id })
      .catch(categoryGone);
    const product = created && (await findProduct(app.db, created.id));
    if (!product) throw notFound("Product not found");
    return reply.status(201).send(product);
  });

  app.put("/products/:id", { schema: { params: uuidParam, body: productInput } }, async (request) => {
    const [updated] = await app.db
      .update(products)
      .set({ ...(await productRow(app.db, request.body)), updatedAt: new Date() })
      .where(eq(products.id, request.params.id))
      .returning({ id: products.id })
      .catch(categoryGone);
    if (!updated) throw notFound("Product not found");
    const product = await findProduct(app.db, updated.id);
    if (!product) throw notFound("Product not found");
    return product;
  });

  // Order lines keep their own name, size and price (order_items.product_id is ON DELETE SET NULL).
  app.delete("/products/:id", { schema: { params: uuidParam } }, async (request, reply) => {
    const deleted = await app.db
      .delete(products)
      .where(eq(products.id, request.params.id))
      .returning({ id: products.id });
    if (deleted.length === 0) throw notFound("Product not found");
    return reply.status(204).send();
  });
};
