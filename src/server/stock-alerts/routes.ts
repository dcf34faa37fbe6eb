import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  STOCK_ALERT_REQUESTS_PER_MINUTE,
  STOCK_ALERTS_PER_ADDRESS,
  STOCK_ALERTS_WAITING_PER_NETWORK,
} from "#domain/limits.js";
import { accountMessage } from "#domain/schemas/account.js";
import { stockAlertAnswer, stockAlertInput, stockAlertTokenInput } from "#domain/schemas/stock-alerts.js";
import { productWithSize } from "#domain/stock.js";
import { STOCK_ALERT_CONFIRM_HOURS } from "#domain/stock-alerts.js";
import { provenEmail } from "../auth/accounts.js";
import { countAttempt } from "../auth/rate-limit.js";
import { enqueueEmail } from "../mail/outbox.js";
import { clientNetwork } from "../platform/client-network.js";
import type { Config } from "../platform/config.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { productStock, products, stockAlerts } from "../platform/db/schema.js";
import { badRequest, conflict, HttpError, notFound } from "../platform/errors.js";
import { readStockAlertLink, signStockAlertLink, stockAlertKey } from "./tokens.js";

export const STOCK_ALERT_LINK_INVALID_MESSAGE = "This link has expired or is not valid. Ask for the alert again.";
export const UNSUBSCRIBED_MESSAGE = "You are unsubscribed: we will send this address no more back-in-stock alerts.";
export const CONFIRMED_MESSAGE = "Your alert is on: we will e-mail you once when the size is back in stock.";

/** An alert still unconfirmed STOCK_ALERT_CONFIRM_HOURS after it was asked for: its link has expired. */
const lapsed = sql`(${stockAlerts.confirmedAt} is null and ${stockAlerts.createdAt} <= now() - ${`${STOCK_ALERT_CONFIRM_HOURS} hours`}::interval)`;

/**
 * 409 when the address has STOCK_ALERTS_PER_ADDRESS open alerts: its confirmed ones, and those
 * waiting for their link that were asked from `network` (null: confirmed ones only). Waiting alerts
 * asked from other networks, and lapsed ones, take no place.
 */
async function assertPlaceForAlert(tx: Transaction, email: string, network: string | null) {
  const [open] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(stockAlerts)
    .where(
      and(
        sql`lower(${stockAlerts.email}) = lower(${email})`,
        network === null
          ? isNotNull(stockAlerts.confirmedAt)
          : or(isNotNull(stockAlerts.confirmedAt), and(eq(stockAlerts.askedFrom, network), sql`not ${lapsed}`)),
      ),
    );
  if ((open?.count ?? 0) >= STOCK_ALERTS_PER_ADDRESS) {
    throw conflict(
      `This address already has ${STOCK_ALERTS_PER_ADDRESS} open back-in-stock alerts, the most it may have.`,
      "STOCK_ALERT_LIMIT",
    );
  }
}

/** Unconfirmed alerts whose link has expired: they end (the back-in-stock job's sweep). Answers how many. */
export async function endLapsedStockAlerts(db: Database): Promise<number> {
  const ended = await db.delete(stockAlerts).where(lapsed).returning({ id: stockAlerts.id });
  return ended.length;
}

/** One ask for an alert, as its transaction writes it. */
interface AlertAsk {
  productId: string;
  size: string;
  email: string;
  user: FastifyRequest["user"];
  /** The account's proven address: its alert is on at once, with no link and no network's budget. */
  trusted: string | null;
  network: string;
  productName: string;
}

/**
 * POST /api/stock-alerts (ask for an alert), /confirm (the e-mailed link of an alert asked for
 * without logging in) and /unsubscribe (the link in every alert e-mail, no login needed).
 */
export const stockAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = stockAlertKey(app.db);

  app.post(
    "/",
    { schema: { body: stockAlertInput, response: { 200: stockAlertAnswer, 202: stockAlertAnswer } } },
    async (request, reply) => {
      const { productId, size } = request.body;
      const user = request.user;
      // On at once only for an account whose address is proven its own; anyone else, a signed-in
      // account with an unproven address included, confirms by the e-mailed link (docs/decisions/041).
      const trusted = user ? await provenEmail(app.db, user.id) : null;
      const network = clientNetwork(request.ip);
      if (!trusted) {
        // Anyone may ask: a budget per client network, and one per address, so no one floods a mailbox.
        await countAttempt(
          app.db,
          reply,
          [`stock-alert:ip:${network}`],
          Math.min(app.config.authRateLimitPerMinute, STOCK_ALERT_REQUESTS_PER_MINUTE),
        );
      }
      const email = user ? user.email : request.body.email;
      if (!email) throw badRequest("email is required");
      if (!trusted) {
        await countAttempt(app.db, reply, [`stock-alert:address:${email.toLowerCase()}`], 2);
      }

      const product = await outOfStockProduct(app.db, productId, size);
      const signingKey = await key();
      const ask: AlertAsk = { productId, size, email, user, trusted, network, productName: product.name };
      const link = { productUrl: `${app.config.publicUrl}/products/${product.slug}`, signingKey };
      const answer = await app.db.transaction(async (tx) => answerAsk(tx, app.config, ask, link));
      if (answer.status === "confirm") app.mail.wake();
      return reply.status(answer.status === "confirm" ? 202 : 200).send(answer);
    },
  );

  app.post(
    "/confirm",
    { schema: { body: stockAlertTokenInput, response: { 200: accountMessage } } },
    async (request) => {
      const link = readStockAlertLink(await key(), request.body.token);
      if (link?.purpose !== "confirm") throw badRequest(STOCK_ALERT_LINK_INVALID_MESSAGE, "STOCK_ALERT_LINK_INVALID");
      const confirmed = await app.db.transaction(async (tx) => confirmAlert(tx, link.alertId));
      if (!confirmed) throw badRequest(STOCK_ALERT_LINK_INVALID_MESSAGE, "STOCK_ALERT_LINK_INVALID");
      return { message: CONFIRMED_MESSAGE };
    },
  );

  app.post(
    "/unsubscribe",
    { schema: { body: stockAlertTokenInput, response: { 200: accountMessage } } },
    async (request) => {
      const link = readStockAlertLink(await key(), request.body.token);
      if (link?.purpose !== "unsubscribe") {
        throw badRequest(STOCK_ALERT_LINK_INVALID_MESSAGE, "STOCK_ALERT_LINK_INVALID");
      }
      // Every open alert of the address ends; an address with none left is answered the same.
      await app.db.delete(stockAlerts).where(sql`lower(${stockAlerts.email}) = lower(${link.email})`);
      return { message: UNSUBSCRIBED_MESSAGE };
    },
  );
};

/** The product asked about, refused when it is unknown, lacks the size, or has the size in stock now. */
async function outOfStockProduct(db: Database, productId: string, size: string) {
  const [product] = await db
    .select({ name: products.name, slug: products.slug, sizes: products.sizes })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw notFound("Product not found");
  if (!product.sizes.includes(size)) throw badRequest(`size must be one of the product's sizes`);
  const [stock] = await db
    .select({ left: sql<number>`${productStock.quantity} - ${productStock.held}` })
    .from(productStock)
    .where(and(eq(productStock.productId, productId), eq(productStock.size, size)));
  if ((stock?.left ?? 0) > 0) {
    throw conflict(`${productWithSize(product.name, size)} is in stock now.`, "STOCK_ALERT_SIZE_IN_STOCK");
  }
  return product;
}

/**
 * The ask, in its transaction: the locks, the address's alert for this size (a lapsed one ended), the
 * caps for a new one. A trusted account's alert is switched on, an alert already on is answered as
 * such, and any other waits for the e-mailed link.
 */
async function answerAsk(
  tx: Transaction,
  config: Config,
  ask: AlertAsk,
  link: { productUrl: string; signingKey: Buffer },
) {
  const { productId, size, email, user, trusted, network } = ask;
  // One network, then one address, at a time, so the caps hold whatever the race.
  if (!trusted) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stock-alert-net:${network}`}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stock-alert:${email.toLowerCase()}`}))`);
  const existing = await openAlertOf(tx, ask);
  if (!existing) {
    await assertPlaceForAlert(tx, email, trusted ? null : network);
    if (!trusted) await assertNetworkMayWait(tx, network);
  }
  if (user && trusted) {
    if (existing) {
      await tx
        .update(stockAlerts)
        .set({ confirmedAt: sql`coalesce(${stockAlerts.confirmedAt}, now())`, userId: user.id })
        .where(eq(stockAlerts.id, existing.id));
    } else {
      await tx.insert(stockAlerts).values({ productId, size, email, userId: user.id, confirmedAt: new Date() });
    }
    return { status: "subscribed" as const, message: `We will e-mail ${email} once when ${size} is back.` };
  }
  if (existing?.confirmedAt) {
    return { status: "subscribed" as const, message: `${email} will get one e-mail when ${size} is back.` };
  }
  return sendConfirmLink(tx, config, ask, existing?.id, link);
}

/** The address's alert for this product and size, if any; one whose confirmation lapsed unused is ended first. */
async function openAlertOf(tx: Transaction, ask: AlertAsk) {
  const [found] = await tx
    .select({ id: stockAlerts.id, confirmedAt: stockAlerts.confirmedAt, lapsed: sql<boolean>`${lapsed}` })
    .from(stockAlerts)
    .where(
      and(
        eq(stockAlerts.productId, ask.productId),
        eq(stockAlerts.size, ask.size),
        sql`lower(${stockAlerts.email}) = lower(${ask.email})`,
      ),
    );
  // A confirmation that lapsed unused is gone: asking again starts afresh, with a new link.
  if (found?.lapsed) await tx.delete(stockAlerts).where(eq(stockAlerts.id, found.id));
  return found?.lapsed ? undefined : found;
}

/** 429 when STOCK_ALERTS_WAITING_PER_NETWORK alerts asked from the network wait for their link. */
async function assertNetworkMayWait(tx: Transaction, network: string) {
  const [waiting] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(stockAlerts)
    .where(and(eq(stockAlerts.askedFrom, network), isNull(stockAlerts.confirmedAt), sql`not ${lapsed}`));
  if ((waiting?.count ?? 0) >= STOCK_ALERTS_WAITING_PER_NETWORK) {
    throw new HttpError(
      429,
      `${STOCK_ALERTS_WAITING_PER_NETWORK} alerts asked from your network are waiting for their confirmation link. Confirm one from its e-mail, or try again once they lapse (${STOCK_ALERT_CONFIRM_HOURS} hours after they were asked for).`,
      "STOCK_ALERT_WAITING_LIMIT",
    );
  }
}

/** The alert waiting for its link (`existingId`, or written now), and the e-mail with its link, valid STOCK_ALERT_CONFIRM_HOURS. */
async function sendConfirmLink(
  tx: Transaction,
  config: Config,
  ask: AlertAsk,
  existingId: string | undefined,
  link: { productUrl: string; signingKey: Buffer },
) {
  const { productId, size, email, network } = ask;
  const alertId =
    existingId ??
    (
      await tx
        .insert(stockAlerts)
        .values({ productId, size, email, askedFrom: network })
        .returning({ id: stockAlerts.id })
    )[0]?.id;
  if (!alertId) throw new Error("the alert was not written");
  const expiresAt = new Date(Date.now() + STOCK_ALERT_CONFIRM_HOURS * 3_600_000);
  const token = signStockAlertLink(link.signingKey, { purpose: "confirm", alertId }, expiresAt);
  await enqueueEmail(tx, {
    kind: "stock_alert_confirm",
    eventKey: alertId,
    to: email,
    data: {
      productName: ask.productName,
      size,
      productUrl: link.productUrl,
      confirmUrl: `${config.publicUrl}/stock-alerts/confirm?token=${token}`,
    },
  });
  return {
    status: "confirm" as const,
    message: `Check ${email}: we sent a link to confirm the alert. Nothing is sent until you use it.`,
  };
}

/** The e-mailed link's alert switched on, if it has not lapsed and the address has room. Answers whether it is on. */
async function confirmAlert(tx: Transaction, alertId: string): Promise<boolean> {
  const [alert] = await tx
    .select({ email: stockAlerts.email, confirmedAt: stockAlerts.confirmedAt })
    .from(stockAlerts)
    .where(and(eq(stockAlerts.id, alertId), sql`not ${lapsed}`));
  if (!alert) return false;
  if (alert.confirmedAt) return true;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stock-alert:${alert.email.toLowerCase()}`}))`);
  // Only confirmed alerts count here: the address's owner is the one confirming.
  await assertPlaceForAlert(tx, alert.email, null);
  await tx
    .update(stockAlerts)
    .set({ confirmedAt: sql`coalesce(${stockAlerts.confirmedAt}, now())` })
    .where(eq(stockAlerts.id, alertId));
  return true;
}
