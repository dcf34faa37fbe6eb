import { randomUUID } from "node:crypto";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { loginInput, registerInput, user } from "#domain/schemas/account.js";
import { recordAudit } from "../platform/audit.js";
import { users } from "../platform/db/schema.js";
import { forbidden, unauthorized } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { duplicateUserError, findTakenIdentity, toUser, userColumns } from "./accounts.js";
import { addressProofRoutes, noteSignupAttempt, sendAddressProof } from "./address-proof.js";
import { recordConsentChange } from "./consents.js";
import { confirmEmailRoutes } from "./email-change.js";
import { countLoginFailure, refuseFailingNetwork } from "./login-failures.js";
import { passwordChangeRoutes } from "./password-change.js";
import { assertAcceptablePassword } from "./password-policy.js";
import { passwordResetRoutes } from "./password-reset.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { accountKey, attemptKeys, countAttempt, networkKey } from "./rate-limit.js";
import { endSession, startSession } from "./session.js";
import { sessionListRoutes } from "./sessions-list.js";
import {
  checkSecondFactor,
  recordCodeRefused,
  refuseCode,
  secondFactorContext,
  twoFactorRoutes,
} from "./two-factor.js";

/** A new account's profile fields the sign-up form may leave out, as the table's defaults make them. */
const NEW_PROFILE = {
  phone: "",
  address: "",
  city: "",
  zipCode: "",
  altPhone: "",
  complex: "",
  suburb: "",
  province: "",
  deliveryInstructions: "",
};

/**
 * POST /api/auth/register, /login, /logout, GET /api/auth/me, and the password routes
 * (password-reset.ts, password-change.ts).
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  await app.register(passwordResetRoutes);
  await app.register(passwordChangeRoutes);
  await app.register(twoFactorRoutes);
  await app.register(sessionListRoutes);
  await app.register(confirmEmailRoutes);
  await app.register(addressProofRoutes);
  registerSignUp(app);
  registerLogin(app);

  app.post("/logout", async (request, reply) => {
    await endSession(request, reply);
    return reply.status(204).send();
  });

  // The session's user, whatever x-user-id says: this is how the browser learns who it really is.
  app.get("/me", { schema: { response: { 200: user } } }, async (request) => {
    if (!request.user) throw unauthorized("Not logged in", "NOT_LOGGED_IN");
    return toUser(request.user);
  });
};

/** POST /register: a new customer's account, and the link that proves its address. */
function registerSignUp(app: ShopApp): void {
  // Registering does not sign in: the dialog then asks the new customer to log in (docs/product.md §8).
  // An address that has an account is answered exactly as a new sign-up (201 and a user's shape, after
  // the same password checks and hashing), and its owner is told by e-mail (docs/decisions/041). A
  // taken username is still said: the customer must choose another, and a username is no address.
  app.post("/register", { schema: { body: registerInput, response: { 201: user } } }, async (request, reply) => {
    const input = request.body;
    await countAttempt(
      app.db,
      reply,
      attemptKeys("register", request, [input.username, input.email]),
      app.config.authRateLimitPerMinute,
    );
    await assertAcceptablePassword(input.password);
    const taken = await findTakenIdentity(app.db, { username: input.username, email: input.email });
    if (taken?.code === "USERNAME_TAKEN") throw taken;

    const { password, marketingEmail, ...profile } = input;
    const passwordHash = await hashPassword(password);
    // What a new account's answer would have been; nothing is made.
    const asIfNew = async () => {
      await noteSignupAttempt(app.db, input.email);
      app.mail.wake();
      return reply
        .status(201)
        .send(toUser({ ...NEW_PROFILE, ...profile, id: randomUUID(), isAdmin: false, createdAt: new Date() }));
    };
    if (taken) return asIfNew();
    try {
      const created = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ ...profile, passwordHash, isAdmin: false })
          .returning(userColumns);
        if (!row) throw new Error("insert returned no row");
        // Only a ticked box is a consent; an unticked one leaves the account with none (opt-in).
        if (marketingEmail) {
          await recordConsentChange(tx, request, {
            userId: row.id,
            channel: "email",
            granted: true,
            source: "signup",
            shopName: app.config.shop.name,
            actor: { id: row.id, username: row.username },
          });
        }
        // The link that proves the address; until it is followed the account shops, but sees nothing
        // the shop sent to the address before (docs/decisions/041).
        await sendAddressProof(tx, row.id, row.email);
        return row;
      });
      app.mail.wake();
      return reply.status(201).send(toUser(created));
    } catch (error) {
      // Two sign-ups racing for one name: the unique index decides.
      const duplicate = duplicateUserError(error);
      if (duplicate?.code === "EMAIL_TAKEN") return asIfNew();
      if (duplicate) throw duplicate;
      throw error;
    }
  });
}

/** POST /login: by username or e-mail address and password, then an admin's code when two-step sign-in is on. */
function registerLogin(app: ShopApp): void {
  app.post("/login", { schema: { body: loginInput, response: { 200: user } } }, async (request, reply) => {
    const { username: identifier, password } = request.body;
    const sameUsername = sql`lower(${users.username}) = lower(${identifier})`;
    const [found] = await app.db
      .select({ ...userColumns, passwordHash: users.passwordHash, disabledAt: users.disabledAt })
      .from(users)
      // A closed account is nobody: its password is unusable too, but it is not even looked at.
      .where(and(isNull(users.closedAt), or(sameUsername, sql`lower(${users.email}) = lower(${identifier})`)))
      .orderBy(sql`${sameUsername} desc`)
      .limit(1);
    // Every attempt counts against the network; only a wrong password counts against the account
    // (however it was named; an unknown name against its own text), so strangers failing cannot
    // shut its owner out (docs/decisions/042-failures-not-attempts.md).
    const account = found ? { userId: found.id } : identifier;
    await countAttempt(app.db, reply, [networkKey("login", request)], app.config.authRateLimitPerMinute);
    await refuseFailingNetwork(request, reply, account);
    // Unknown user and wrong password take the same path, time and answer.
    const matches = await verifyPassword(found?.passwordHash ?? null, password);
    if (!found || !matches) {
      await countLoginFailure(request, account);
      await recordAudit(app.db, request, {
        action: "auth.login_failed",
        actor: found ? { id: found.id, username: found.username } : null,
        // Never what was typed when it names nobody: that is often a password typed into the wrong field.
        after: found
          ? { reason: "wrong password" }
          : { reason: "unknown account", typed: identifier.includes("@") ? "an e-mail address" : "a username" },
      });
      throw unauthorized("Invalid credentials", "INVALID_CREDENTIALS");
    }
    // Only after the password: a disabled account is not told apart from a wrong guess.
    if (found.disabledAt) {
      await recordAudit(app.db, request, {
        action: "auth.login_failed",
        actor: { id: found.id, username: found.username },
        after: { reason: "account disabled" },
      });
      throw forbidden(
        "This account has been disabled. Please contact us if you think this is a mistake.",
        "ACCOUNT_DISABLED",
      );
    }

    const needsCode = await checkLoginCode(app, request, reply, found);
    await startSession(request, reply, found, needsCode);
    await recordAudit(app.db, request, {
      action: "auth.login_succeeded",
      actor: { id: found.id, username: found.username },
      subject: { type: "user", id: found.id },
      after: { isAdmin: found.isAdmin },
    });
    const { passwordHash: _hash, disabledAt: _disabled, ...signedIn } = found;
    return toUser(signedIn);
  });
}

/**
 * An admin with two-step sign-in: the password was right, now the code (each one used once).
 * True when the account needs one (and the one given was right); a missing or wrong code is refused.
 */
async function checkLoginCode(
  app: ShopApp,
  request: FastifyRequest<{ Body: { code?: string } }>,
  reply: FastifyReply,
  found: { id: string; username: string; isAdmin: boolean },
): Promise<boolean> {
  const [factor] = await app.db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, found.id));
  if (!found.isAdmin || !factor?.enabledAt) return false;
  const code = request.body.code;
  if (!code) {
    throw unauthorized("Enter the 6-digit code from your authenticator app.", "SECOND_FACTOR_REQUIRED");
  }
  // Codes have their own budget: wrong passwords from strangers never spend it.
  await countAttempt(
    app.db,
    reply,
    [accountKey("second-factor", { userId: found.id })],
    app.config.authRateLimitPerMinute,
  );
  const checked = await app.db.transaction((tx) => checkSecondFactor(tx, secondFactorContext(app), found.id, code));
  if (!checked.ok) {
    await recordCodeRefused(request, checked, "login", { id: found.id, username: found.username });
    if ("locked" in checked) refuseCode(reply, checked);
    throw unauthorized(
      "That code is not right. Enter the current code from your authenticator app.",
      "SECOND_FACTOR_WRONG",
    );
  }
  return true;
}
