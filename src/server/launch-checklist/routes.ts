import { stringify } from "csv-stringify/sync";
import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type LaunchItem,
  launchChecklist,
  launchItem,
  launchItemInput,
  launchItemParams,
} from "#domain/schemas/launch-checklist.js";
import { requireUser } from "../auth/guards.js";
import { asText } from "../orders/admin-export.js";
import { recordAudit } from "../platform/audit.js";
import type { Database } from "../platform/db/client.js";
import { launchChecklistTicks } from "../platform/db/schema.js";
import { notFound } from "../platform/errors.js";
import type { LaunchChecklistContent, LaunchDuty } from "./content.js";

type Tick = typeof launchChecklistTicks.$inferSelect;

function itemOf(duty: LaunchDuty, tick: Tick | undefined): LaunchItem {
  return {
    ...duty,
    done: tick?.done ?? false,
    changedAt: tick?.changedAt.toISOString() ?? null,
    changedBy: tick?.changedByUsername ?? null,
  };
}

/** Every duty of the owner's file with its tick; rows of duties no longer in the file are left out. */
async function itemsWithTicks(db: Database, content: LaunchChecklistContent): Promise<LaunchItem[]> {
  const ticks = new Map((await db.select().from(launchChecklistTicks)).map((tick) => [tick.itemId, tick]));
  return content.items.map((duty) => itemOf(duty, ticks.get(duty.id)));
}

/**
 * The admin's "Before you open" (docs/decisions/039): GET the duties with their ticks, PUT one
 * tick, GET the whole list as CSV for the shop's records. Under /api/admin, so requireAdmin guards it.
 */
export const adminLaunchChecklistRoutes: FastifyPluginAsyncZod<{ content: LaunchChecklistContent }> = async (
  app,
  { content },
) => {
  app.get("/launch-checklist", { schema: { response: { 200: launchChecklist } } }, async () => {
    const items = await itemsWithTicks(app.db, content);
    return {
      title: content.title,
      introHtml: content.introHtml,
      live: app.config.payfast.mode === "live",
      items,
      open: items.filter((item) => !item.done).length,
    };
  });

  app.put(
    "/launch-checklist/:itemId",
    { schema: { params: launchItemParams, body: launchItemInput, response: { 200: launchItem } } },
    async (request) => {
      const { itemId } = request.params;
      const { done } = request.body;
      const duty = content.items.find((item) => item.id === itemId);
      if (!duty) {
        throw notFound(
          `"Before you open" has no item ${itemId}: the items are ${content.items.map((item) => item.id).join(", ")}.`,
        );
      }
      const admin = requireUser(request);
      return app.db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(launchChecklistTicks)
          .where(eq(launchChecklistTicks.itemId, itemId))
          .for("update");
        if ((before?.done ?? false) === done) return itemOf(duty, before);
        const who = { done, changedById: admin.id, changedByUsername: admin.username };
        // Two first ticks at once both find no row: the second changes nothing and records nothing.
        const [after] = await tx
          .insert(launchChecklistTicks)
          .values({ itemId, ...who })
          .onConflictDoUpdate({
            target: launchChecklistTicks.itemId,
            set: { ...who, changedAt: sql`now()` },
            setWhere: sql`${launchChecklistTicks.done} <> ${done}`,
          })
          .returning();
        if (!after) {
          const [now] = await tx.select().from(launchChecklistTicks).where(eq(launchChecklistTicks.itemId, itemId));
          return itemOf(duty, now);
        }
        await recordAudit(tx, request, {
          action: done ? "launch_checklist.ticked" : "launch_checklist.unticked",
          subject: { type: "launch_checklist", id: itemId },
          before: { done: before?.done ?? false },
          after: { done, title: duty.title },
        });
        return itemOf(duty, after);
      });
    },
  );

  app.get("/launch-checklist.csv", { schema: { response: { 200: z.string() } } }, async (_request, reply) => {
    const items = await itemsWithTicks(app.db, content);
    reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="before-you-open.csv"');
    return stringify([
      ["Item", "Duty", "Source", "Done", "Ticked or unticked at (UTC)", "By"],
      ...items.map((item) =>
        [item.id, item.title, item.source, item.done ? "yes" : "no", item.changedAt ?? "", item.changedBy ?? ""].map(
          asText,
        ),
      ),
    ]);
  });
};
