import { z } from "zod";
import { EMAIL_MAX, SIZE_NAME_MAX, STOCK_ALERT_TOKEN_MAX } from "../limits.js";
import { requiredText } from "./common.js";

/** POST /api/stock-alerts: a logged-in shopper sends no e-mail (the account's is used); anyone else gives one. */
export const stockAlertInput = z.object({
  productId: z.uuid({ message: "productId must be a valid product id" }),
  size: requiredText("size", SIZE_NAME_MAX),
  email: requiredText("email", EMAIL_MAX)
    .pipe(z.email({ message: "email must be a valid email address" }))
    .optional(),
});
export type StockAlertInput = z.input<typeof stockAlertInput>;

/** The answer: whether the alert is on ("subscribed") or waits for the e-mailed link ("confirm"), in words. */
export const stockAlertAnswer = z.object({
  status: z.enum(["subscribed", "confirm"]),
  message: z.string(),
});
export type StockAlertAnswer = z.infer<typeof stockAlertAnswer>;

/** POST /api/stock-alerts/confirm and /unsubscribe: the token of the e-mailed link. */
export const stockAlertTokenInput = z.object({
  token: z.string({ message: "token is required" }).trim().min(1, "token is required").max(STOCK_ALERT_TOKEN_MAX),
});
