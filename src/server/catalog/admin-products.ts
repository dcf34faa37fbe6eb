import { asc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminProduct, type ProductValues, productInput } from "#domain/schemas/catalog.js";
import { uuidParam } from "#domain/schemas/common.js";
import { changedFields, recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from "../platform/db/errors.js";
import { categories, productStock, products } from "../platform/db/schema.js";
import { badRequest, notFound } from "../platform/errors.js";
import { setStockLevels } from "../stock/levels.js";
import { sendBackInStock } from "../stock-alerts/notify.js";
import { stockAlertKey } from "../stock-alerts/tokens.js";
import { listAdminProducts } from "./queries.js";
import { slugAfterRename, slugForNewProduct } from "./slugs.js";

async function categoryIdByName(db: Database, name: string): Promise<string> {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(sql`lower(${categories.name})`, name.toLowerCase()));
  if (!row) throw badRequest("category must be one of the categories");
  return row.id;
}

/**
 * The columns of a product from the validated form: per-size images keep only the sizes in the
 * list; every size gets a price (its own, or the form's price) and the product's price is the
 * lowest of them, the "from" price old clients read (docs/decisions/022-prices-per-size.md).
 */
async function productRow(db: Database, values: ProductValues) {
  const sizeImages: Record<string, string> = {};
  const sizePrices: Record<string, number> = {};
  const sizePackCounts: Record<string, number> = {};
  for (const size of values.sizes) {
    const image = values.sizeImages[size];
    if (image) sizeImages[size] = image;
    sizePrices[size] = values.sizePrices[size] ?? values.price;
    const count = values.sizePackCounts[size];
    if (count) sizePackCounts[size] = count;
  }
  return {
    name: values.name,
    categoryId: await categoryIdByName(db, values.category),
    priceCents: Math.min(...Object.values(sizePrices)),
    sizePrices,
    sizePackCounts,
    packUnit: values.packUnit,
    image: values.image,
    description: values.description,
    sizes: values.sizes,
    sizeImages,
    promoText: values.promoText,
    ...(values.vatClass ? { vatClass: values.vatClass } : {}),
    // Left out on update: the product keeps its own; on create the column's default applies.
    ...(values.maxPerOrder === undefined ? {} : { maxPerOrder: values.maxPerOrder }),
    ...(values.multibuyTiers === undefined ? {} : { multibuyTiers: values.multibuyTiers }),
    ...(values.planSavingPercent === undefined ? {} : { planSavingBp: values.planSavingPercent }),
    ...(values.absorbency === undefined ? {} : { absorbency: values.absorbency }),
    ...sizeFitColumns(values),
    ...(values.sizeParcels === undefined
      ? {}
      : {
          sizeParcels: Object.fromEntries(
            values.sizes.flatMap((size) => (values.sizeParcels?.[size] ? [[size, values.sizeParcels[size]]] : [])),
          ),
        }),
  };
}

/**
 * The size guide's columns: the measure and the ranges are written together (ranges of sizes no
 * longer listed dropped), or, both left out, the product keeps its own.
 */
function sizeFitColumns(values: ProductValues) {
  if (values.fitMeasure === undefined && values.sizeFits === undefined) return {};
  const fitMeasure = values.fitMeasure ?? null;
  const given = values.sizeFits ?? {};
  const sizeFits = Object.fromEntries(
    values.sizes.flatMap((size) => (fitMeasure && given[size] ? [[size, given[size]]] : [])),
  );
  return { fitMeasure, sizeFits };
}

/** The category was deleted between our look-up and the write: the foreign key refuses it. */
function categoryGone(error: unknown): never {
  if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw badRequest("category must be one of the categories");
  throw error;
}

/** A product as the audit trail keeps it (price in cents, stock per size), read in the change's transaction. */
async function productSnapshot(tx: Transaction, id: string): Promise<Record<string, unknown> | null> {
  const [row] = await tx
    .select({
      name: products.name,
      category: categories.name,
      priceCents: products.priceCents,
      image: products.image,
      description: products.description,
      sizes: products.sizes,
      sizeImages: products.sizeImages,
      sizePrices: products.sizePrices,
      sizePackCounts: products.sizePackCounts,
      packUnit: products.packUnit,
      promoText: products.promoText,
      vatClass: products.vatClass,
      maxPerOrder: products.maxPerOrder,
      multibuyTiers: products.multibuyTiers,
      planSavingBp: products.planSavingBp,
      absorbency: products.absorbency,
      fitMeasure: products.fitMeasure,
      sizeFits: products.sizeFits,
      sizeParcels: products.sizeParcels,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(products.id, id));
  if (!row) return null;
  const stock = await tx
    .select({ size: productStock.size, quantity: productStock.quantity })
    .from(productStock)
    .where(eq(productStock.productId, id))
    .orderBy(asc(productStock.size));
  return { ...row, stock: Object.fromEntries(stock.map(({ size, quantity }) => [size, quantity])) };
}

async function adminProductById(db: Database, id: string) {
  const [product] = await listAdminProducts(db, id);
  if (!product) throw notFound("Product not found");
  return product;
}

/**
 * /api/admin/products: the products with their stock per size, and their writes. A product and
 * its stock are written in one transaction, and every answer is the product as GET answers it.
 */
export const adminProductRoutes: FastifyPluginAsyncZod = async (app) => {
  const alertKey = stockAlertKey(app.db);
  app.get("/products", { schema: { response: { 200: z.array(adminProduct) } } }, async () => listAdminProducts(app.db));

  app.post("/products", { schema: { body: productInput, response: { 201: adminProduct } } }, async (request, reply) => {
    const row = await productRow(app.db, request.body);
    const id = await app.db
      .transaction(async (tx) => {
        const slug = await slugForNewProduct(tx, row.name);
        const [created] = await tx
          .insert(products)
          .values({ ...row, slug })
          .returning({ id: products.id });
        if (!created) throw notFound("Product not found");
        await setStockLevels(tx, created.id, row, request.body.stock);
        await recordAudit(tx, request, {
          action: "product.created",
          subject: { type: "product", id: created.id },
          after: await productSnapshot(tx, created.id),
        });
        return created.id;
      })
      .catch(categoryGone);
    return reply.status(201).send(await adminProductById(app.db, id));
  });

  app.put(
    "/products/:id",
    { schema: { params: uuidParam, body: productInput, response: { 200: adminProduct } } },
    async (request) => {
      const row = await productRow(app.db, request.body);
      let alertsSent = 0;
      await app.db
        .transaction(async (tx) => {
          const before = await productSnapshot(tx, request.params.id);
          const slug = await slugAfterRename(tx, request.params.id, row.name);
          if (slug === null) throw notFound("Product not found");
          const [updated] = await tx
            .update(products)
            .set({ ...row, slug, updatedAt: new Date() })
            .where(eq(products.id, request.params.id))
            .returning({ id: products.id });
          if (!updated || !before) throw notFound("Product not found");
          await setStockLevels(tx, updated.id, row, request.body.stock);
          // A sold-out size back on the shelf: its alerts' e-mails, with this change or not at all.
          alertsSent = await sendBackInStock(tx, updated.id, { publicUrl: app.config.publicUrl }, await alertKey());
          const changes = changedFields(before, (await productSnapshot(tx, updated.id)) ?? {});
          if (changes) {
            await recordAudit(tx, request, {
              action: "product.updated",
              subject: { type: "product", id: updated.id },
              ...changes,
            });
          }
        })
        .catch(categoryGone);
      if (alertsSent > 0) app.mail.wake();
      return adminProductById(app.db, request.params.id);
    },
  );
  // Order lines keep their own name, size and price (order_items.product_id is ON DELETE SET NULL).
  app.delete(
    "/products/:id",
    { schema: { params: uuidParam, response: { 204: z.null() } } },
    async (request, reply) => {
      const deleted = await app.db.transaction(async (tx) => {
        const before = await productSnapshot(tx, request.params.id);
        const [row] = await tx
          .delete(products)
          .where(eq(products.id, request.params.id))
          .returning({ id: products.id });
        if (!row) return false;
        await recordAudit(tx, request, { action: "product.deleted", subject: { type: "product", id: row.id }, before });
        return true;
      });
      if (!deleted) throw notFound("Product not found");
      return reply.status(204).send(null);
    },
  );
};
