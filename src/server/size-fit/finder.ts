import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type SizeFinderAnswer, sizeFinderAnswer, sizeFinderQuery } from "#domain/schemas/size-fit.js";
import { type FitMeasure, nearTopOfSize, recommendSize } from "#domain/size-fit.js";
import { requireUser } from "../auth/guards.js";
import type { Database } from "../platform/db/client.js";
import { categories, products } from "../platform/db/schema.js";
import { badRequest, notFound } from "../platform/errors.js";
import { findChild } from "./children.js";

/** The products with a guide of `measure`, among the named ones or of a category. */
async function productsWithGuide(
  db: Database,
  measure: FitMeasure,
  filter: { productIds?: string[]; category?: string },
) {
  const where: SQL[] = [eq(products.fitMeasure, measure)];
  if (filter.productIds) where.push(inArray(products.id, filter.productIds));
  if (filter.category) where.push(eq(sql`lower(${categories.name})`, filter.category.toLowerCase()));
  return db
    .select({ id: products.id, sizes: products.sizes, fitMeasure: products.fitMeasure, sizeFits: products.sizeFits })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(...where))
    .orderBy(products.name, products.id);
}

/**
 * GET /api/size-finder: each product's size for a weight, a waist, or one of the parent's children
 * (src/domain/size-fit.ts; docs/decisions/046-size-finder.md). Products without a guide of that
 * measure are left out of the answer. Never cached: a child's weight is the parent's alone.
 */
export const sizeFinderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/size-finder",
    { schema: { querystring: sizeFinderQuery, response: { 200: sizeFinderAnswer } } },
    async (request, reply): Promise<SizeFinderAnswer> => {
      reply.header("cache-control", "no-store");
      const { weightKg, waistCm, childId, productIds, category } = request.query;
      let measure: FitMeasure = "weight";
      let value: number;
      let sizeUpPrompt = false;
      if (childId !== undefined) {
        const parent = requireUser(request);
        const child = await findChild(app.db, parent.id, childId);
        if (!child) throw notFound("No such child on this account");
        if (child.weightGrams === null) throw badRequest("Add the child's weight first", "VALIDATION_FAILED");
        value = child.weightGrams;
        sizeUpPrompt = child.sizeUpPromptedAt === null;
      } else if (waistCm !== undefined) {
        measure = "waist";
        value = Math.round(waistCm);
      } else {
        value = Math.round((weightKg ?? 0) * 1000);
      }
      const rows = await productsWithGuide(app.db, measure, { productIds, category });
      const recommendations = rows.flatMap((row) => {
        const recommended = recommendSize(row, value);
        if (!recommended) return [];
        const nearTopOf = childId !== undefined ? nearTopOfSize(row, value) : null;
        return [{ productId: row.id, ...recommended, measure, nearTopOf }];
      });
      return {
        measure,
        value,
        recommendations,
        sizeUpPrompt: sizeUpPrompt && recommendations.some((answer) => answer.nearTopOf !== null),
      };
    },
  );
};
