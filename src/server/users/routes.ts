import { and, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { profileInput, user } from "#domain/schemas/account.js";
import { uuidParam } from "#domain/schemas/common.js";
import {
  duplicateUserError,
  findTakenIdentity,
  findUserById,
  refuseClosedAccount,
  toUser,
  userColumns,
} from "../auth/accounts.js";
import { confirmCurrentPassword } from "../auth/current-password.js";
import { requestEmailChange } from "../auth/email-change.js";
import { requireSelfOrAdmin } from "../auth/guards.js";
import { changedFields, recordAudit } from "../platform/audit.js";
import { users } from "../platform/db/schema.js";
import { conflict, forbidden, notFound } from "../platform/errors.js";

export const EMAIL_CHANGE_NEEDS_PASSWORD_MESSAGE = "Enter your current password to change your e-mail address.";

/** Addresses differing only in case reach the same mailbox: that is not a change of address. */
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** /api/users/{id}: only that user or an admin, checked before the body is even validated. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preValidation", async (request) => {
    const { id } = request.params as { id?: string };
    requireSelfOrAdmin(request, id ?? "");
  });
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.put(
    "/:id",
    { schema: { params: uuidParam, body: profileInput, response: { 200: user } } },
    async (request, reply) => {
      const { id } = request.params;
      const actor = requireSelfOrAdmin(request, id);
      const { currentPassword, ...profile } = request.body;
      const before = await findUserById(app.db, id);
      if (!before) throw notFound("User not found");
      await refuseClosedAccount(app.db, id);

      // A new address is where the next reset link goes: whoever changes it proves who they are
      // with their own password (an admin editing a customer, with the admin's). It takes effect
      // only once the link mailed to the new address is followed (email-change.ts); whether the
      // address is someone else's is said only then, so this form tells nobody who is a customer.
      const emailChanges = !sameAddress(before.email, profile.email);
      // Another admin's address is theirs alone to change: an admin who could move it to a mailbox
      // of their own could then reset that admin's password and act as them (issue 26).
      if (emailChanges && before.isAdmin && actor.id !== id) {
        throw forbidden("Only that admin can change their own e-mail address, from their profile.");
      }
      if (emailChanges) {
        await confirmCurrentPassword(request, reply, actor.id, currentPassword, EMAIL_CHANGE_NEEDS_PASSWORD_MESSAGE);
      } else if (before.email !== profile.email) {
        // Only its case changes: the same mailbox, kept at once (the unique index still decides).
        const taken = await findTakenIdentity(app.db, { email: profile.email }, id);
        if (taken) throw taken;
      }
      const kept = emailChanges ? { ...profile, email: before.email } : profile;

      try {
        const updated = await app.db.transaction(async (tx) => {
          // Only over the address that was checked: a change in between is not overwritten unseen.
          const [row] = await tx
            .update(users)
            .set(kept)
            .where(and(eq(users.id, id), sql`lower(${users.email}) = lower(${before.email})`))
            .returning(userColumns);
          if (!row) return null;
          const fields = [
            "fullName",
            "email",
            "phone",
            "altPhone",
            "address",
            "complex",
            "suburb",
            "city",
            "province",
            "zipCode",
            "deliveryInstructions",
          ] as const;
          const pick = (user: typeof row) => Object.fromEntries(fields.map((field) => [field, user[field]]));
          const changes = changedFields(pick(before), pick(row));
          if (changes) {
            await recordAudit(tx, request, {
              action: "user.profile_updated",
              subject: { type: "user", id },
              ...changes,
            });
          }
          if (emailChanges) await requestEmailChange(tx, request, id, profile.email);
          return row;
        });
        if (!updated) {
          if (!(await findUserById(app.db, id))) throw notFound("User not found");
          throw conflict(
            "This account's details changed in the meantime. Please reload and try again.",
            "REFERENCE_CHANGED",
          );
        }
        if (emailChanges) app.mail.wake();
        return toUser(updated);
      } catch (error) {
        const duplicate = duplicateUserError(error);
        if (duplicate) throw duplicate;
        throw error;
      }
    },
  );
};
