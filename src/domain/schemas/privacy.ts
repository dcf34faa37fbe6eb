import { z } from "zod";
import { CONSENT_CHANNELS, CONSENT_SOURCES, OFFERED_CONSENT_CHANNELS } from "../consent.js";
import { PASSWORD_MAX } from "../limits.js";

/** Download my data, Close my account: the account's own password, typed again. */
export const passwordConfirmInput = z.object({
  password: z
    .string({ message: "password is required" })
    .min(1, "password is required")
    .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`),
});
export type PasswordConfirmInput = z.infer<typeof passwordConfirmInput>;

/** PUT /api/account/consents: give or withdraw marketing consent on one channel the shop offers. */
export const consentChoiceInput = z.object({
  channel: z.enum(OFFERED_CONSENT_CHANNELS, {
    message: `channel must be one of: ${OFFERED_CONSENT_CHANNELS.join(", ")}`,
  }),
  granted: z.boolean({ message: "granted must be true or false" }),
});
export type ConsentChoiceInput = z.infer<typeof consentChoiceInput>;

/** One channel's consent as it stands: the newest record, or none given yet. */
export const channelConsent = z.object({
  channel: z.enum(CONSENT_CHANNELS),
  granted: z.boolean(),
  /** The words shown when it was last changed; the words the form shows now when never changed. */
  words: z.string(),
  changedAt: z.string().nullable(),
  source: z.enum(CONSENT_SOURCES).nullable(),
});
export type ChannelConsent = z.infer<typeof channelConsent>;

export const consentsAnswer = z.object({ consents: z.array(channelConsent) });
export type ConsentsAnswer = z.infer<typeof consentsAnswer>;

/** The answer of Close my account: a sentence to show as it is. */
export const accountClosedAnswer = z.object({ message: z.string() });
