import { z } from "zod";
import { DELIVERY_SERVICES, POSTAL_CODE_PATTERN, PRICE_SOURCES } from "../delivery.js";
import {
  DELIVERY_POINT_SEARCH_MAX,
  MAX_LINE_QUANTITY,
  ORDER_LINES_MAX,
  QUOTE_PLACE_MAX,
  QUOTE_PROVINCE_MAX,
  SIZE_NAME_MAX,
  STREET_ADDRESS_MAX,
} from "../limits.js";
import { requiredText, text } from "./common.js";

/** The cart as the delivery options need it: which sizes, how many. */
export const deliveryCartLine = z.object({
  id: z.uuid({ message: "items[].id must be a valid product id" }),
  size: requiredText("items[].size", SIZE_NAME_MAX),
  quantity: z
    .number({ message: "items[].quantity must be a number" })
    .int("items[].quantity must be a whole number")
    .min(1, "items[].quantity must be at least 1")
    .max(MAX_LINE_QUANTITY, `items[].quantity must be at most ${MAX_LINE_QUANTITY}`),
});

const postalCode = z
  .string({ message: "zipCode must be a 4-digit postal code" })
  .trim()
  .regex(POSTAL_CODE_PATTERN, "zipCode must be a 4-digit postal code");

/** Where the order goes, as far as a courier's rate needs it. */
export const deliveryDestination = z.object({
  address: text(STREET_ADDRESS_MAX).optional().default(""),
  suburb: text(QUOTE_PLACE_MAX).optional().default(""),
  city: text(QUOTE_PLACE_MAX).optional().default(""),
  province: text(QUOTE_PROVINCE_MAX).optional().default(""),
  zipCode: postalCode,
});
export type DeliveryDestination = z.infer<typeof deliveryDestination>;

/** The shopper's choice: a service, and for a locker or pickup point the point's code. */
export const deliveryChoice = z.object({
  service: z.enum(DELIVERY_SERVICES, { message: `service must be one of ${DELIVERY_SERVICES.join(", ")}` }),
  pointCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{2,20}$/, "pointCode must be a locker or pickup point code")
    .optional(),
});
export type DeliveryChoice = z.infer<typeof deliveryChoice>;

/** POST /api/delivery/options. */
export const deliveryOptionsInput = z.object({
  items: z
    .array(deliveryCartLine)
    .min(1, "items must hold at least one line")
    .max(ORDER_LINES_MAX, `items must hold at most ${ORDER_LINES_MAX} lines`),
  destination: deliveryDestination,
  /** The locker or pickup point chosen so far: its own rate is quoted. */
  lockerCode: deliveryChoice.shape.pointCode,
  /** A nappy plan's box: the free-delivery threshold counts its goods at plan prices, as create-order does. */
  plan: z.boolean({ message: "plan must be true or false" }).optional().default(false),
});
export type DeliveryOptionsInput = z.input<typeof deliveryOptionsInput>;

export const deliveryOption = z.object({
  service: z.enum(DELIVERY_SERVICES),
  label: z.string(),
  available: z.boolean(),
  /** Why it is not on offer ("Your order is too big for a locker"). */
  unavailableReason: z.string().nullable(),
  /** The courier's (or the owner's flat) price, and what the shopper pays after free delivery. */
  price: z.string(),
  charge: z.string(),
  source: z.enum(PRICE_SOURCES),
  /** Said plainly when a live quote failed and the flat price stands in. */
  note: z.string().nullable(),
  expectedDay: z.string(),
  expectedText: z.string(),
});
export type DeliveryOption = z.infer<typeof deliveryOption>;

export const deliveryOptionsAnswer = z.object({
  options: z.array(deliveryOption),
  /** The boxes the order packs into ("1 x Medium box, 6.2 kg"). */
  parcels: z.string(),
});
export type DeliveryOptionsAnswer = z.infer<typeof deliveryOptionsAnswer>;

/** GET /api/delivery/points?service=locker&near=2196 (a postal code, a suburb or a town). */
export const deliveryPointsQuery = z.object({
  service: z.enum(["locker", "pickup_point"], { message: "service must be locker or pickup_point" }),
  near: requiredText("near", DELIVERY_POINT_SEARCH_MAX),
});

export const deliveryPoint = z.object({
  code: z.string(),
  name: z.string(),
  address: z.string(),
  suburb: z.string(),
  city: z.string(),
  postalCode: z.string(),
  /** "Mon-Fri 08:00-18:00, Sat 08:00-13:00". */
  hours: z.string(),
  /** Degrees (WGS84), for the checkout's map; null when the courier's list did not give them. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type DeliveryPoint = z.infer<typeof deliveryPoint>;

export const deliveryPointsAnswer = z.object({ points: z.array(deliveryPoint) });
export type DeliveryPointsAnswer = z.infer<typeof deliveryPointsAnswer>;

/** The option an order records (the order page and e-mails show it). */
export const orderDelivery = z.object({
  service: z.enum(DELIVERY_SERVICES),
  label: z.string(),
  pointCode: z.string().nullable(),
  pointName: z.string().nullable(),
  pointAddress: z.string().nullable(),
  quotedPrice: z.string().nullable(),
  source: z.enum(PRICE_SOURCES),
  rateRevisionId: z.string().nullable(),
  expectedDay: z.string().nullable(),
});
export type OrderDelivery = z.infer<typeof orderDelivery>;
