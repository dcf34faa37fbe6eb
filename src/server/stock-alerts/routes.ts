import { and, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accountMessage } from "#domain/schemas/account.js";
import { stockAlertAnswer, stockAlertInput, stockAlertTokenInput } from "#domain/schemas/stock-alerts.js";
import { productWithSize } from "#domain/stock.js";
import {
  STOCK_ALERT_CONFIRM_HOURS,
  STOCK_ALERT_REQUESTS_PER_MINUTE,
  STOCK_ALERTS_PER_ADDRESS,
} from "#domain/stock-alerts.js";
import { clientNetwork } from "../auth/client-network.js";
import { countAttempt } from "../auth/rate-limit.js";
import { productStock, products, stockAlerts } from "../db/schema.js";
import { badRequest, conflict, notFound } from "../errors.js";
import { enqueueEmail } from "../mail/outbox.js";
import { readStockAlertLink, signStockAlertLink, stockAlertKey } from "./tokens.js";

export const STOCK_ALERT_LINK_INVALID_MESSAGE = "This link has expired or is not valid. Ask for the alert again.";
export const UNSUBSCRIBED_MESSAGE = "You are unsubscribed: we will send this address no more back-in-stock alerts.";
export const CONFIRMED_MESSAGE = "Your alert is on: we will e-mail you once when the size is back in stock.";

/**
 * POST /api/stock-alerts (ask for an alert), /confirm (the e-mailed link of an alert asked for
 * without logging in) and /unsubscribe (the link in every alert e-mail, no login needed).
 */
export const stockAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = stockAlertKey(app.db);
  const hours = (count: number) => new Date(Date.now() + count * 3_600_000);

  app.post(
    "/",
    { schema: { body: stockAlertInput, response: { 200: stockAlertAnswer, 202: stockAlertAnswer } } },
    async (request, reply) => {
      const { productId, size } = request.body;
      const user = request.user;
      if (!user) {
        // Anyone may ask: a budget per client network, and one per address, so no one floods a mailbox.
        await countAttempt(
          app.db,
          reply,
          [`stock-alert:ip:${clientNetwork(request.ip)}`],
          Math.min(app.config.authRateLimitPerMinute, STOCK_ALERT_REQUESTS_PER_MINUTE),
        );
      }
      const email = user ? user.email : request.body.email;
      if (!email) throw badRequest("email is required");
      if (!user) {
        await countAttempt(app.db, reply, [`stock-alert:address:${email.toLowerCase()}`], 2);
      }

      const [product] = await app.db
        .select({ name: products.name, slug: products.slug, sizes: products.sizes })
        .from(products)
        .where(eq(products.id, productId));
      if (!product) throw notFound("Product not found");
      if (!product.sizes.includes(size)) throw badRequest(`size must be one of the product's sizes`);
      const [stock] = await app.db
        .select({ left: sql<number>`${productStock.quantity} - ${productStock.held}` })
        .from(productStock)
        .where(and(eq(productStock.productId, productId), eq(productStock.size, size)));
      if ((stock?.left ?? 0) > 0) {
        throw conflict(`${productWithSize(product.name, size)} is in stock now.`, "STOCK_ALERT_SIZE_IN_STOCK");
      }

      const productUrl = `${app.config.publicUrl}/products/${product.slug}`;
      const signingKey = await key();
      const answer = await app.db.transaction(async (tx) => {
        // One address at a time, so the cap holds whatever the race.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stock-alert:${email.toLowerCase()}`}))`);
        const [existing] = await tx
          .select({ id: stockAlerts.id, confirmedAt: stockAlerts.confirmedAt })
          .from(stockAlerts)
          .where(
            and(
              eq(stockAlerts.productId, productId),
              eq(stockAlerts.size, size),
              sql`lower(${stockAlerts.email}) = lower(${email})`,
            ),
          );
        if (!existing) {
          const [open] = await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(stockAlerts)
            .where(sql`lower(${stockAlerts.email}) = lower(${email})`);
          if ((open?.count ?? 0) >= STOCK_ALERTS_PER_ADDRESS) {
            throw conflict(
              `This address already has ${STOCK_ALERTS_PER_ADDRESS} open back-in-stock alerts, the most it may have.`,
              "STOCK_ALERT_LIMIT",
            );
          }
        }
        if (user) {
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
        const alertId =
          existing?.id ??
          (await tx.insert(stockAlerts).values({ productId, size, email }).returning({ id: stockAlerts.id }))[0]?.id;
        if (!alertId) throw new Error("the alert was not written");
        const token = signStockAlertLink(signingKey, { purpose: "confirm", alertId }, hours(STOCK_ALERT_CONFIRM_HOURS));
        await enqueueEmail(
          tx,
          {
            kind: "stock_alert_confirm",
            eventKey: alertId,
            to: email,
            data: {
              productName: product.name,
              size,
              productUrl,
              confirmUrl: `${app.config.publicUrl}/stock-alerts/confirm?token=${token}`,
            },
          },
          app.config.shop.name,
        );
        return {
          status: "confirm" as const,
          message: `Check ${email}: we sent a link to confirm the alert. Nothing is sent until you use it.`,
        };
      });
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
      const confirmed = await app.db
        .update(stockAlerts)
        .set({ confirmedAt: sql`coalesce(${stockAlerts.confirmedAt}, now())` })
        .where(eq(stockAlerts.id, link.alertId))
        .returning({ id: stockAlerts.id });
      if (confirmed.length === 0) throw badRequest(STOCK_ALERT_LINK_INVALID_MESSAGE, "STOCK_ALERT_LINK_INVALID");
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
