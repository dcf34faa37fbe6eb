import { asc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { DEFAULT_BOX_SIZES } from "#domain/parcels.js";
import {
  boxCodeParam,
  type DeliveryBox,
  deliveryBox,
  deliveryBoxesAnswer,
  deliveryBoxInput,
} from "#domain/schemas/delivery-admin.js";
import { recordAudit } from "../platform/audit.js";
import type { Transaction } from "../platform/db/client.js";
import { deliveryBoxes } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";

const boxOf = (row: typeof deliveryBoxes.$inferSelect): DeliveryBox => ({ ...row });

/**
 * The owner's boxes for the first change: while the table is empty the shop packs into
 * DEFAULT_BOX_SIZES (delivery/options.ts), so the first add, edit or removal starts from those, written
 * in the same transaction, and the list the owner saw is the list they change. The table is locked
 * so two first changes at once do not both write the defaults.
 */
async function ownBoxes(tx: Transaction): Promise<DeliveryBox[]> {
  await tx.execute(sql`lock table ${deliveryBoxes} in share row exclusive mode`);
  const rows = await tx.select().from(deliveryBoxes).orderBy(asc(deliveryBoxes.code));
  if (rows.length > 0) return rows.map(boxOf);
  await tx.insert(deliveryBoxes).values(DEFAULT_BOX_SIZES.map((box) => ({ ...box })));
  return DEFAULT_BOX_SIZES.map((box) => ({ ...box }));
}

const volume = (box: DeliveryBox) => box.lengthMm * box.widthMm * box.heightMm;

/**
 * /api/admin/delivery/boxes: the box sizes an order is packed into (docs/decisions/051 and 053), listed
 * smallest first, added, changed and removed; each change audited. At least one box stays: with none
 * nothing could be packed (the shop would fall back to the defaults without saying so).
 */
export const adminDeliveryBoxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/delivery/boxes", { schema: { response: { 200: deliveryBoxesAnswer } } }, async () => {
    const rows = await app.db.select().from(deliveryBoxes);
    const boxes = rows.length > 0 ? rows.map(boxOf) : DEFAULT_BOX_SIZES.map((box) => ({ ...box }));
    return {
      boxes: boxes.sort((a, b) => volume(a) - volume(b) || a.code.localeCompare(b.code)),
      usingDefaults: rows.length === 0,
    };
  });

  app.post(
    "/delivery/boxes",
    { schema: { body: deliveryBoxInput, response: { 201: deliveryBox } } },
    async (request, reply) => {
      const box = request.body;
      await app.db.transaction(async (tx) => {
        const boxes = await ownBoxes(tx);
        if (boxes.some((existing) => existing.code === box.code)) {
          throw conflict(`There is already a box with the code ${box.code}`, "ALREADY_EXISTS");
        }
        await tx.insert(deliveryBoxes).values(box);
        await recordAudit(tx, request, {
          action: "delivery_box.created",
          subject: { type: "delivery_box", id: box.code },
          after: box,
        });
      });
      return reply.status(201).send(box);
    },
  );

  app.put(
    "/delivery/boxes/:code",
    { schema: { params: boxCodeParam, body: deliveryBoxInput, response: { 200: deliveryBox } } },
    async (request) => {
      const code = request.params.code.toUpperCase();
      const box = request.body;
      await app.db.transaction(async (tx) => {
        const boxes = await ownBoxes(tx);
        const before = boxes.find((existing) => existing.code === code);
        if (!before) throw notFound(`No box has the code ${code}`);
        if (box.code !== code && boxes.some((existing) => existing.code === box.code)) {
          throw conflict(`There is already a box with the code ${box.code}`, "ALREADY_EXISTS");
        }
        await tx.update(deliveryBoxes).set(box).where(eq(deliveryBoxes.code, code));
        await recordAudit(tx, request, {
          action: "delivery_box.updated",
          subject: { type: "delivery_box", id: box.code },
          before,
          after: box,
        });
      });
      return box;
    },
  );

  app.delete(
    "/delivery/boxes/:code",
    { schema: { params: boxCodeParam, response: { 204: z.null() } } },
    async (request, reply) => {
      const code = request.params.code.toUpperCase();
      await app.db.transaction(async (tx) => {
        const boxes = await ownBoxes(tx);
        const before = boxes.find((existing) => existing.code === code);
        if (!before) throw notFound(`No box has the code ${code}`);
        if (boxes.length === 1) {
          throw conflict("Keep at least one box: orders are packed into your boxes", "DELIVERY_BOX_LAST");
        }
        await tx.delete(deliveryBoxes).where(eq(deliveryBoxes.code, code));
        await recordAudit(tx, request, {
          action: "delivery_box.deleted",
          subject: { type: "delivery_box", id: code },
          before,
        });
      });
      return reply.status(204).send(null);
    },
  );
};
