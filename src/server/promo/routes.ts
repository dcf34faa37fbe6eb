import { desc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { centsToDecimal } from "#domain/money.js";
import { describePromo } from "#domain/promo.js";
import { uuidParam } from "#domain/schemas/common.js";
import { adminPromoCode, promoCodeInput } from "#domain/schemas/promo.js";
import { changedFields, recordAudit } from "../platform/audit.js";
import { pgErrorCode, UNIQUE_VIOLATION } from "../platform/db/errors.js";
import { promoCodes } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";

type PromoRow = typeof promoCodes.$inferSelect;

const USAGE = sql<{ uses: number; held: number; givenAwayCents: number }>`(
  select json_build_object(
    'uses', count(*) filter (where r.state = 'used'),
    'held', count(*) filter (where r.state = 'held'),
    'givenAwayCents', coalesce(sum(r.discount_cents) filter (where r.state = 'used'), 0)
  ) from promo_redemptions r where r.promo_code_id = ${promoCodes.id})`;

function toAdmin(row: PromoRow, usage: { uses: number; held: number; givenAwayCents: number }) {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    percent: row.percent,
    amount: row.amountCents === null ? null : centsToDecimal(row.amountCents),
    minSpend: row.minSpendCents === null ? null : centsToDecimal(row.minSpendCents),
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    maxUses: row.maxUses,
    maxUsesPerCustomer: row.maxUsesPerCustomer,
    productIds: row.productIds,
    categoryIds: row.categoryIds,
    active: row.active,
    description: describePromo(row),
    uses: usage.uses,
    held: usage.held,
    givenAway: centsToDecimal(usage.givenAwayCents),
    createdAt: row.createdAt.toISOString(),
  };
}

function columnsOf(input: z.output<typeof promoCodeInput>) {
  return {
    code: input.code,
    kind: input.kind,
    percent: input.percent,
    amountCents: input.amount,
    minSpendCents: input.minSpend,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    maxUses: input.maxUses,
    maxUsesPerCustomer: input.maxUsesPerCustomer,
    productIds: input.productIds,
    categoryIds: input.categoryIds,
    active: input.active,
  };
}

/** What the audit trail keeps of a code: its rules, dates as ISO text. */
function audited(row: PromoRow) {
  const { id: _id, createdAt: _created, ...rules } = row;
  return { ...rules, startsAt: row.startsAt?.toISOString() ?? null, endsAt: row.endsAt?.toISOString() ?? null };
}

function duplicateCode(error: unknown, code: string): never {
  if (pgErrorCode(error) === UNIQUE_VIOLATION) throw conflict(`A promo code ${code} already exists`, "ALREADY_EXISTS");
  throw error;
}

/** /api/admin/promo-codes: the admin's list (with uses and what they gave away), create and change; audited. */
export const adminPromoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/promo-codes", { schema: { response: { 200: z.array(adminPromoCode) } } }, async () => {
    const rows = await app.db
      .select({ row: promoCodes, usage: USAGE })
      .from(promoCodes)
      .orderBy(desc(promoCodes.createdAt), desc(promoCodes.id));
    return rows.map(({ row, usage }) => toAdmin(row, usage));
  });

  app.post(
    "/promo-codes",
    { schema: { body: promoCodeInput, response: { 201: adminPromoCode } } },
    async (request, reply) => {
      const created = await app.db
        .transaction(async (tx) => {
          const [row] = await tx.insert(promoCodes).values(columnsOf(request.body)).returning();
          if (!row) throw new Error("insert returned no row");
          await recordAudit(tx, request, {
            action: "promo_code.created",
            subject: { type: "promo_code", id: row.id },
            after: audited(row),
          });
          return row;
        })
        .catch((error: unknown) => duplicateCode(error, request.body.code));
      return reply.status(201).send(toAdmin(created, { uses: 0, held: 0, givenAwayCents: 0 }));
    },
  );

  app.put(
    "/promo-codes/:id",
    { schema: { params: uuidParam, body: promoCodeInput, response: { 200: adminPromoCode } } },
    async (request) => {
      const updated = await app.db
        .transaction(async (tx) => {
          // Locked as checkouts lock it: a change waits for the checkouts holding it, and the next ones see it.
          const [before] = await tx.select().from(promoCodes).where(eq(promoCodes.id, request.params.id)).for("update");
          if (!before) return null;
          const [row] = await tx
            .update(promoCodes)
            .set(columnsOf(request.body))
            .where(eq(promoCodes.id, before.id))
            .returning();
          if (!row) throw new Error("update returned no row");
          const changed = changedFields(audited(before), audited(row));
          if (changed) {
            await recordAudit(tx, request, {
              action: "promo_code.updated",
              subject: { type: "promo_code", id: row.id },
              ...changed,
            });
          }
          return row;
        })
        .catch((error: unknown) => duplicateCode(error, request.body.code));
      if (!updated) throw notFound("No such promo code");
      const [usage] = await app.db.select({ usage: USAGE }).from(promoCodes).where(eq(promoCodes.id, updated.id));
      return toAdmin(updated, usage?.usage ?? { uses: 0, held: 0, givenAwayCents: 0 });
    },
  );
};
