import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { centsToDecimal } from "#domain/money.js";
import { checkPromo, describePromo } from "#domain/promo.js";
import { promoCheckAnswer, promoCheckInput } from "#domain/schemas/promo.js";
import { provenEmail } from "../auth/accounts.js";
import { countAttempt } from "../auth/rate-limit.js";
import { productsForOrderQuery } from "../orders/queries.js";
import { savingsForOrder } from "../orders/savings.js";
import { clientNetwork } from "../platform/client-network.js";
import { findPromo, productCategories, promoError, promoUses, toPromoLines } from "../promo/codes.js";
import { priceLinesForCheck } from "./promo-lines.js";

/**
 * POST /api/promo-codes/check: what a code gives this cart, or exactly why it does not (4xx
 * `{ message, code }`). Signed in or not; the per-customer limit is counted for a signed-in shopper.
 * Create-order checks again and decides.
 */
export const promoCheckRoutes: FastifyPluginAsyncZod = async (app) => {
  const findProducts = productsForOrderQuery(app.db);
  app.post(
    "/promo-codes/check",
    { schema: { body: promoCheckInput, response: { 200: promoCheckAnswer } } },
    async (request, reply) => {
      await countAttempt(
        app.db,
        reply,
        [`promo-check:ip:${clientNetwork(request.ip)}`],
        app.config.promoChecksPerMinute,
      );
      const { lines, products } = await priceLinesForCheck(findProducts, request.body.items);
      const promo = await findPromo(app.db, request.body.code);
      const categoryOf = await productCategories(
        app.db,
        lines.map((line) => line.productId),
      );
      const userId = request.user?.id ?? null;
      const customer = { userId, provenEmail: userId ? await provenEmail(app.db, userId) : null };
      const uses = promo
        ? await promoUses(app.db, promo.id, customer, app.config.orderHoldMinutes)
        : { total: 0, byCustomer: 0 };
      const now = new Date();
      // As create-order: the tiers, then the code by MULTIBUY_WITH_PROMO (orders/savings.ts).
      const savings = savingsForOrder(products, app.config.multibuyWithPromo, (priced, off) =>
        checkPromo(promo, toPromoLines(priced, categoryOf), now, uses, off),
      );
      savings.totalsOf(lines);
      const check = savings.outcome();
      if (!check?.ok || !promo) throw promoError(check && !check.ok ? check : { code: "PROMO_UNKNOWN", message: "" });
      const { figures } = check;
      return {
        code: promo.code,
        description: describePromo(promo),
        applied: figures.promoApplied,
        subtotal: centsToDecimal(figures.subtotalCents),
        multibuyDiscount: centsToDecimal(figures.multibuyDiscountCents),
        discount: centsToDecimal(figures.discountCents),
        deliveryFee: centsToDecimal(figures.deliveryFeeCents),
        deliveryDiscount: centsToDecimal(figures.deliveryDiscountCents),
        total: centsToDecimal(figures.totalCents),
        lines: lines.map((line, index) => ({
          id: line.productId,
          size: line.size,
          discount: centsToDecimal(figures.lineDiscountsCents[index] ?? 0),
          multibuyDiscount: centsToDecimal(figures.lineMultibuyCents[index] ?? 0),
        })),
      };
    },
  );
};
