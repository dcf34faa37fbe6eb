import { asc, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminCategory, categoryInput } from "#domain/schemas/catalog.js";
import { uuidParam } from "#domain/schemas/common.js";
import { changedFields, recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { FOREIGN_KEY_VIOLATION, pgErrorCode, UNIQUE_VIOLATION } from "../platform/db/errors.js";
import { categories, products } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";

const categoryColumns = { id: categories.id, name: categories.name, description: categories.description };

async function countProducts(db: Database | Transaction, categoryId: string): Promise<number> {
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

/** Changes a category's name and description, audited with what changed; null when there is no such category. */
async function updateCategory(
  tx: Transaction,
  request: FastifyRequest,
  id: string,
  values: { name: string; description: string },
) {
  const [before] = await tx.select(categoryColumns).from(categories).where(eq(categories.id, id)).for("update");
  if (!before) return null;
  // Products reference the category by id, so a rename carries them along.
  const [row] = await tx.update(categories).set(values).where(eq(categories.id, id)).returning(categoryColumns);
  if (!row) return null;
  const changes = changedFields(
    { name: before.name, description: before.description },
    { name: row.name, description: row.description },
  );
  if (changes) {
    await recordAudit(tx, request, {
      action: "category.updated",
      subject: { type: "category", id: row.id },
      ...changes,
    });
  }
  return row;
}

/** /api/admin/categories: names are stored lower-case, since products carry the name on the wire. */
export const adminCategoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/categories", { schema: { response: { 200: z.array(adminCategory) } } }, async () => {
    return app.db
      .select({ ...categoryColumns, productCount: sql<number>`count(${products.id})::int` })
      .from(categories)
      .leftJoin(products, eq(products.categoryId, categories.id))
      .groupBy(categories.id)
      .orderBy(asc(sql`lower(${categories.name})`));
  });

  app.post(
    "/categories",
    { schema: { body: categoryInput, response: { 201: adminCategory } } },
    async (request, reply) => {
      const name = request.body.name.toLowerCase();
      const created = await app.db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(categories)
            .values({ name, description: request.body.description })
            .returning(categoryColumns);
          if (!row) throw new Error("insert returned no row");
          const { id, ...after } = row;
          await recordAudit(tx, request, { action: "category.created", subject: { type: "category", id }, after });
          return row;
        })
        .catch((error: unknown) => duplicateName(error, name));
      return reply.status(201).send({ ...created, productCount: 0 });
    },
  );

  app.put(
    "/categories/:id",
    { schema: { params: uuidParam, body: categoryInput, response: { 200: adminCategory } } },
    async (request) => {
      const name = request.body.name.toLowerCase();
      const values = { name, description: request.body.description };
      const updated = await app.db
        .transaction((tx) => updateCategory(tx, request, request.params.id, values))
        .catch((error: unknown) => duplicateName(error, name));
      if (!updated) throw notFound("Category not found");
      return { ...updated, productCount: await countProducts(app.db, updated.id) };
    },
  );

  app.delete(
    "/categories/:id",
    { schema: { params: uuidParam, response: { 204: z.null() } } },
    async (request, reply) => {
      const { id } = request.params;
      const used = await countProducts(app.db, id);
      if (used > 0) throw conflict(usedMessage(used), "CATEGORY_IN_USE");
      const deleted = await app.db
        .transaction(async (tx) => {
          const rows = await tx.delete(categories).where(eq(categories.id, id)).returning(categoryColumns);
          for (const { id: deletedId, ...before } of rows) {
            await recordAudit(tx, request, {
              action: "category.deleted",
              subject: { type: "category", id: deletedId },
              before,
            });
          }
          return rows;
        })
        .catch(async (error: unknown) => {
          // A product was added to it since we counted: the foreign key refuses, and so do we.
          if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION)
            throw conflict(usedMessage(await countProducts(app.db, id)), "CATEGORY_IN_USE");
          throw error;
        });
      if (deleted.length === 0) throw notFound("Category not found");
      return reply.status(204).send(null);
    },
  );
};
