import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DELIVERY_SERVICE_LABELS, formatDeliveryDay } from "#domain/delivery.js";
import { centsToDecimal } from "#domain/money.js";
import {
  deliveryOptionsAnswer,
  deliveryOptionsInput,
  deliveryPointsAnswer,
  deliveryPointsQuery,
} from "#domain/schemas/delivery.js";
import { HttpError } from "../platform/errors.js";
import { chargeOf } from "./options.js";

/**
 * POST /api/delivery/options (the options for a cart and address, priced) and
 * GET /api/delivery/points (the lockers or pickup points nearest a postal code or place).
 */
export const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/options",
    { schema: { body: deliveryOptionsInput, response: { 200: deliveryOptionsAnswer } } },
    async (request, reply) => {
      const { items, destination, lockerCode, plan } = request.body;
      const quote = await app.delivery.quotes.quote(items, destination, lockerCode, plan);
      reply.header("cache-control", "no-store");
      return {
        options: quote.options.map((option) => ({
          service: option.service,
          label: DELIVERY_SERVICE_LABELS[option.service],
          available: option.available,
          unavailableReason: option.unavailableReason,
          price: centsToDecimal(option.priceCents),
          charge: centsToDecimal(chargeOf(quote, option.service)),
          source: option.source,
          note: option.note,
          expectedDay: option.expectedDay,
          expectedText: formatDeliveryDay(option.expectedDay),
        })),
        parcels: quote.packing.ok
          ? quote.packing.boxes.map((box) => `${box.box.name}, ${(box.weightGrams / 1000).toFixed(1)} kg`).join(" + ")
          : "Too big to pack",
      };
    },
  );

  app.get(
    "/points",
    { schema: { querystring: deliveryPointsQuery, response: { 200: deliveryPointsAnswer } } },
    async (request) => {
      const { service, near } = request.query;
      if (!app.delivery.quotes.offers(service)) {
        throw new HttpError(
          409,
          "This shop delivers to your door only: no lockers or pickup points.",
          "DELIVERY_UNAVAILABLE",
        );
      }
      try {
        const points = await app.delivery.directory.nearest(service, near);
        return { points: points.map(({ open: _open, ...point }) => point) };
      } catch (error) {
        request.log.warn({ err: error, service }, "delivery points: the directory did not answer");
        throw new HttpError(
          503,
          "The list of lockers and pickup points is not available right now. Please choose door delivery or try again shortly.",
          "SERVICE_UNAVAILABLE",
        );
      }
    },
  );
};
