import { asc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { categoryInput } from "../../domain/schemas/catalog.js";
import { uuidParam } from "../../domain/schemas/common.js";
import type { Database } from "../db/client.js";
import { FOREIGN_KEY_VIOLATION, pgErrorCode, UNIQUE_VIOLATION } from "../db/errors.js";
import { categories, products } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";

/** A category as the admin list shows it: the public fields plus how many products use it. */
export interface AdminCategory {
  id: string;
  name: string;
  description: string;
  productCount: number;
}

const categoryColumns = { id: categories.id, name: categories.name, description: categories.description };

async function countProducts(db: Database, categoryId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(products)
    .where(eq(products.categoryId, categoryId));
  return row?.count ?? 0;
}

function usedMessage(count: number) {
  return `This category is used by ${count} product(s). Move or delete them first.`;
}

function duplicateName(error: unknown, name: string): never {
  if (pgErrorCode(error) === UNIQUE_VIOLATION)
    throw conflict(`A category named "${name}" already exists`, "ALREADY_EXISTS");
  throw error;
}

/** /api/admin/categories: names are stored lower-case, since products carry the name on the wire. */
export const adminCategoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/categories", async (): Promise<AdminCategory[]> => {
    return app.db
      .select({ ...categoryColumns, productCount: sql<number>`count(${products.id})::int` })
      .from(categories)
      .leftJoin(products, eq(products.categoryId, categories.id))
      .groupBy(categories.id)
      .orderBy(asc(sql`lower(${categories.name})`));
  });

  app.post("/categories", { schema: { body: categoryInput } }, async (request, reply) => {
    const name = request.body.name.toLowerCase();
    const [created] = await app.db
      .insert(categories)
      .values({ name, description: request.body.description })
      .returning(categoryColumns)
      .catch((error: unknown) => duplicateName(error, name));
    return reply.status(201).send({ ...created, productCount: 0 });
  });

  app.put("/categories/:id", { schema: { params: uuidParam, body: categoryInput } }, async (request) => {
    const name = request.body.name.toLowerCase();
    // Products reference the category by id, so a rename carries them along.
    const [updated] = await app.db
      .update(categories)
      .set({ name, description: request.body.description })
      .where(eq(categories.id, request.params.id))
      .returning(categoryColumns)
      .catch((error: unknown) => duplicateName(error, name));
    if (!updated) throw notFound("Category not found");
    return { ...updated, productCount: await countProducts(app.db, updated.id) };
  });

  app.delete("/categories/:id", { schema: { params: uuidParam } }, async (request, reply) => {
    const { id } = request.params;
    const used = await countProducts(app.db, id);
    if (used > 0) throw conflict(usedMessage(used), "CATEGORY_IN_USE");
    const deleted = await app.db
      .delete(categories)
      .where(eq(categories.id, id))
      .returning({ id: categories.id })
      .catch(async (error: unknown) => {
        // A product was added to it since we counted: the foreign key refuses, and so do we.
        if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION)
          throw conflict(usedMessage(await countProducts(app.db, id)), "CATEGORY_IN_USE");
        throw error;
      });
    if (deleted.length === 0) throw notFound("Category not found");
    return reply.status(204).send();
  });
};
