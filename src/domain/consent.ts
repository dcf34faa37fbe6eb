/**
 * Marketing consent (POPIA s69): opt-in, per channel, each change kept with the words shown.
 * Messages a customer asks for (order mail, back-in-stock alerts, password links) are not
 * marketing and need none of this.
 */

/** Every channel the records can hold; the shop offers the ones in OFFERED_CONSENT_CHANNELS. */
export const CONSENT_CHANNELS = ["email", "sms", "whatsapp"] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** The channels the shop markets on today: the sign-up form and the profile ask about these. */
export const OFFERED_CONSENT_CHANNELS = ["email"] as const satisfies readonly ConsentChannel[];

/**
 * Where a consent was given or withdrawn: the sign-up form, the profile, an unsubscribe link in a
 * marketing message, or closing the account (which withdraws every consent).
 */
export const CONSENT_SOURCES = ["signup", "profile", "unsubscribe", "account_closed"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

const CHANNEL_WORDS: Record<ConsentChannel, string> = {
  email: "by e-mail",
  sms: "by SMS",
  whatsapp: "on WhatsApp",
};

/**
 * The exact words beside the consent box, the same in the browser and in the stored record: the
 * record proves what the customer agreed to.
 */
export function marketingConsentWords(channel: ConsentChannel, shopName: string): string {
  return `Send me ${shopName}'s news and special offers ${CHANNEL_WORDS[channel]}. I can stop them at any time.`;
}

/** The one-line notice where the sign-up form collects personal information (POPIA s18). */
export const SIGN_UP_COLLECTION_NOTICE =
  "We use these details to run your account and deliver your orders, and never sell them.";

/**
 * The ad-measurement notice shown when the shop reports conversions (AD_CONVERSION_ID): the tag
 * loads only after "Allow". Both answers are equally easy, and either is remembered.
 */
export const AD_CONSENT_NOTICE = {
  title: "Ad measurement",
  text: "May we tell our ad service (Google Ads) when you place an order, so we can see which of our ads work? It learns that an order was placed, never your name, address or what you bought.",
  allow: "Allow",
  decline: "No thanks",
} as const;
