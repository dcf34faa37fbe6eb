import { and, asc, count, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_CHILD_PROFILES } from "#domain/limits.js";
import { type ChildProfile, childProfile, childProfileInput } from "#domain/schemas/size-fit.js";
import { refuseClosedAccount } from "../auth/accounts.js";
import { requireSelfOrAdmin } from "../auth/guards.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { childProfiles } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";

export const childColumns = {
  id: childProfiles.id,
  name: childProfiles.name,
  birthMonth: childProfiles.birthMonth,
  weightGrams: childProfiles.weightGrams,
  weighedOn: childProfiles.weighedOn,
  sizeUpPromptedAt: childProfiles.sizeUpPromptedAt,
};

type ChildRow = {
  id: string;
  name: string;
  birthMonth: string | null;
  weightGrams: number | null;
  weighedOn: string | null;
  sizeUpPromptedAt: Date | null;
};

/** A child as the API sends it: the birth month without its day. */
export function toChild(row: ChildRow): ChildProfile {
  return {
    ...row,
    birthMonth: row.birthMonth?.slice(0, 7) ?? null,
    sizeUpPromptedAt: row.sizeUpPromptedAt?.toISOString() ?? null,
  };
}

export async function listChildren(db: Database | Transaction, userId: string): Promise<ChildProfile[]> {
  const rows = await db
    .select(childColumns)
    .from(childProfiles)
    .where(eq(childProfiles.userId, userId))
    .orderBy(asc(childProfiles.createdAt), asc(childProfiles.id));
  return rows.map(toChild);
}

/** One of the user's children, or null (another's child is as unknown as a missing one). */
export async function findChild(db: Database, userId: string, childId: string): Promise<ChildRow | null> {
  const [row] = await db
    .select(childColumns)
    .from(childProfiles)
    .where(and(eq(childProfiles.id, childId), eq(childProfiles.userId, userId)));
  return row ?? null;
}

const childParams = z.object({
  id: z.uuid({ message: "id must be a valid id" }),
  childId: z.uuid({ message: "childId must be a valid id" }),
});
const CHILD_NOT_FOUND = "No such child on this account";

/**
 * /api/users/{id}/children: a parent's children for the size finder (issue 42), with the access
 * rules of the profile (that user or an admin), never cached. A child's details are personal
 * information: they go with the data export and with the account.
 */
export const childRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preValidation", async (request) => {
    const { id } = request.params as { id?: string };
    requireSelfOrAdmin(request, id ?? "");
  });
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get(
    "/:id/children",
    { schema: { params: z.object({ id: z.uuid() }), response: { 200: z.array(childProfile) } } },
    async (request) => listChildren(app.db, request.params.id),
  );

  app.post(
    "/:id/children",
    {
      schema: {
        params: z.object({ id: z.uuid({ message: "id must be a valid id" }) }),
        body: childProfileInput,
        response: { 201: childProfile },
      },
    },
    async (request, reply) => {
      const userId = request.params.id;
      await refuseClosedAccount(app.db, userId);
      const created = await addChild(app.db, userId, request.body);
      if (!created) throw notFound(CHILD_NOT_FOUND);
      return reply.status(201).send(toChild(created));
    },
  );

  app.put(
    "/:id/children/:childId",
    { schema: { params: childParams, body: childProfileInput, response: { 200: childProfile } } },
    async (request) => {
      const { id: userId, childId } = request.params;
      await refuseClosedAccount(app.db, userId);
      const before = await findChild(app.db, userId, childId);
      if (!before) throw notFound(CHILD_NOT_FOUND);
      const { birthMonth, ...child } = request.body;
      // A new weight is a new chance to say "time to move up a size?".
      const reweighed = child.weightGrams !== before.weightGrams;
      const [row] = await app.db
        .update(childProfiles)
        .set({
          ...child,
          birthMonth: birthMonth && `${birthMonth}-01`,
          ...(reweighed ? { sizeUpPromptedAt: null } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(childProfiles.id, childId), eq(childProfiles.userId, userId)))
        .returning(childColumns);
      if (!row) throw notFound(CHILD_NOT_FOUND);
      return toChild(row);
    },
  );

  app.delete(
    "/:id/children/:childId",
    { schema: { params: childParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const { id: userId, childId } = request.params;
      const [row] = await app.db
        .delete(childProfiles)
        .where(and(eq(childProfiles.id, childId), eq(childProfiles.userId, userId)))
        .returning({ id: childProfiles.id });
      if (!row) throw notFound(CHILD_NOT_FOUND);
      return reply.status(204).send(null);
    },
  );

  /** The storefront said "Time to move up a size?" for this weight: not again until a new one. */
  app.post(
    "/:id/children/:childId/size-up-prompted",
    { schema: { params: childParams, response: { 200: childProfile } } },
    async (request) => {
      const { id: userId, childId } = request.params;
      const [row] = await app.db
        .update(childProfiles)
        .set({ sizeUpPromptedAt: new Date() })
        .where(and(eq(childProfiles.id, childId), eq(childProfiles.userId, userId)))
        .returning(childColumns);
      if (!row) throw notFound(CHILD_NOT_FOUND);
      return toChild(row);
    },
  );
};

/** Adds a child to the account, refused once it keeps MAX_CHILD_PROFILES; undefined if no row came back. */
async function addChild(db: Database, userId: string, input: z.infer<typeof childProfileInput>) {
  const { birthMonth, ...child } = input;
  return db.transaction(async (tx) => {
    // One parent adding from two tabs at once: the lock keeps the count true.
    await tx.execute(sqlLockChildren(userId));
    const [kept] = await tx.select({ n: count() }).from(childProfiles).where(eq(childProfiles.userId, userId));
    if ((kept?.n ?? 0) >= MAX_CHILD_PROFILES) {
      throw conflict(`An account may keep at most ${MAX_CHILD_PROFILES} children.`, "CHILD_PROFILE_LIMIT");
    }
    const [row] = await tx
      .insert(childProfiles)
      .values({ ...child, userId, birthMonth: birthMonth && `${birthMonth}-01` })
      .returning(childColumns);
    return row;
  });
}

const sqlLockChildren = (userId: string) => sql`select pg_advisory_xact_lock(hashtext(${`children:${userId}`}))`;
