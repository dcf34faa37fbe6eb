/**
 * Every limit a client can reach, in one file (issue 43): input lengths, counts, page sizes,
 * quantities, amounts, upload sizes and request caps. The shop's rule is "every limit has a number
 * and a test at the edge"; the schemas (src/domain/schemas), the server and the forms read them here.
 * Rules that are not input limits (VAT rates, fees, deadlines, jobs' timings, the operator's
 * settings) stay beside their rule.
 */

// Account and sign-in

/** A new password's shortest (NIST SP 800-63B's minimum); the server also refuses common ones. */
export const PASSWORD_MIN = 8;
/** A password's longest: room for any passphrase or manager, short of hashing megabytes. */
export const PASSWORD_MAX = 256;
/** An e-mail address's longest: RFC 5321's 254-character path. */
export const EMAIL_MAX = 254;
/** A username's longest: a handle, not a sentence. */
export const USERNAME_MAX = 40;
/** A person's full name (account, delivery, invoice): room for long multi-part names. */
export const FULL_NAME_MAX = 120;
/** A second-factor code's shortest: the authenticator app's 6 digits. */
export const SECOND_FACTOR_CODE_MIN = 6;
/** A second-factor code's longest: a recovery code ("abcde-fghjk") with room for stray spaces. */
export const SECOND_FACTOR_CODE_MAX = 20;
/** An e-mailed link's token (password reset, new address): 32 random bytes are 43 characters. */
export const ACCOUNT_LINK_TOKEN_MAX = 200;
/** Links that prove an account's address, sent to one address in any 24 hours (the sign-up's included). */
export const ADDRESS_PROOFS_PER_DAY = 5;
/** Notes to an address's owner that someone tried to sign up with it, in any 24 hours. */
export const SIGNUP_ATTEMPT_NOTES_PER_DAY = 3;
/** "Download my data" per account in any 24 hours: each is a full copy of the account. */
export const DATA_EXPORTS_PER_DAY = 3;

// Address

/** A phone number's longest: an international number with spaces and an extension. */
export const PHONE_MAX = 30;
/** The street address: two lines of a South African address. */
export const STREET_ADDRESS_MAX = 200;
/** The complex or estate and the unit number. */
export const COMPLEX_MAX = 120;
/** A suburb's name. */
export const SUBURB_MAX = 80;
/** A city's or town's name. */
export const CITY_MAX = 80;
/** The postal code field before its four-digit check: room for stray spaces. */
export const POSTAL_CODE_TEXT_MAX = 10;
/** Delivery instructions for the courier (gate codes, "leave with security"): a label's worth. */
export const DELIVERY_INSTRUCTIONS_MAX = 200;
/** A business buyer's name on the tax invoice. */
export const COMPANY_NAME_MAX = 120;

// Cart and orders

/** The most of one product and size a cart line holds: what create-order takes per line; adding more stops here. */
export const MAX_LINE_QUANTITY = 999;
/** Packs of one size an order may take unless the product says otherwise: enough for a household, too few to hoard (decision 020). */
export const DEFAULT_MAX_PER_ORDER = 20;
/** Lines one order (or its cart, quote, promo check or return) may hold: more than any real basket. */
export const ORDER_LINES_MAX = 100;
/** The figures (subtotal, delivery fee, total) the browser sends, in rand: above any real order. */
export const ORDER_FIGURE_MAX_RAND = 10_000_000;
/** A cart line's product name as the browser sends it (ignored by the server, bounded all the same). */
export const LINE_NAME_MAX = 200;
/** The user id create-order may carry (ignored: the session says who it is). */
export const ORDER_USER_ID_MAX = 100;
/** A promo code as typed at the checkout: codes are at most 32, room for spaces and dashes. */
export const PROMO_CODE_INPUT_MAX = 64;
/** A nappy plan's e-mailed link token (pay, skip). */
export const PLAN_LINK_TOKEN_MAX = 1000;
/** Where a locker or pickup point is searched near (a postal code, suburb or town). */
export const DELIVERY_POINT_SEARCH_MAX = 60;
/** A delivery quote's suburb or city. */
export const QUOTE_PLACE_MAX = 100;
/** A delivery quote's province. */
export const QUOTE_PROVINCE_MAX = 40;

// Refunds, cancellations and invoices (admin)

/** A refund's amount in cents (R1,000,000): larger than any order. */
export const REFUND_MAX_CENTS = 100_000_000;
/** Units one refunded line may credit: more than any order line has. */
export const REFUND_LINE_UNITS_MAX = 10_000;
/** Lines one refund may name. */
export const REFUND_LINES_MAX = 200;
/** A refund's or an invoice correction's reason, shortest: PayFast wants 3 to 255 characters. */
export const REASON_MIN = 3;
/** A cancellation's, refund's or invoice correction's reason, longest: PayFast's 255. */
export const REASON_MAX = 255;
/** PayFast's reference of a refund made in its dashboard. */
export const PAYFAST_REFERENCE_MAX = 100;
/** The courier's name on a shipped order. */
export const COURIER_NAME_MAX = 60;
/** A shipment's tracking number. */
export const TRACKING_NUMBER_MAX = 60;

// Catalogue

/** A product's name: a full title ("Pampers Baby-Dry Size 4 (44 Pack)") with room. */
export const PRODUCT_NAME_MAX = 120;
/** A product's description: a few paragraphs. */
export const PRODUCT_DESCRIPTION_MAX = 2000;
/** A category's name (and a category a size-finder question names). */
export const CATEGORY_NAME_MAX = 60;
/** A category's description. */
export const CATEGORY_DESCRIPTION_MAX = 500;
/** An image URL (product or size): long CDN URLs fit. */
export const IMAGE_URL_MAX = 2000;
/** A size's name ("M", "Super"): every size field everywhere. */
export const SIZE_NAME_MAX = 40;
/** Sizes one product may have. */
export const SIZES_PER_PRODUCT_MAX = 30;
/** The admin form's comma-separated sizes text. */
export const SIZE_LIST_TEXT_MAX = 1000;
/** Units in stock per size: far above any shelf. */
export const STOCK_PER_SIZE_MAX = 1_000_000;
/** The most units a pack may hold (the fewest is 1). */
export const MAX_PACK_COUNT = 10_000;
/** A pack's unit word ("nappy", "pad"). */
export const PACK_UNIT_MAX = 30;
/** A product's promotional line on its card. */
export const PROMO_TEXT_MAX = 120;
/** Multi-buy tiers the form may send before the tiers' own rule (MULTIBUY_LIMITS.tiers) checks them. */
export const MULTIBUY_TIERS_INPUT_MAX = 100;
/** The most tiers a product may have, and the limits of each (the admin form and the API refuse others). */
export const MULTIBUY_LIMITS = { tiers: 5, minPacks: { min: 2, max: 999 }, offBp: { min: 1, max: 5_000 } } as const;
/** The plan saving field's text ("12.25"): two digits, two decimals. */
export const PLAN_SAVING_TEXT_MAX = 8;
/** The absorbency field's text: one level digit. */
export const ABSORBENCY_TEXT_MAX = 2;

// Storefront search

/** The storefront's page of products (docs/decisions/026-pages-that-stay-small.md): 48 cards. */
export const CATALOG_PAGE_SIZE = 48;
/** The most products one page may ask for. */
export const CATALOG_PAGE_MAX = 100;
/** The longest search the storefront sends. */
export const CATALOG_SEARCH_MAX = 100;
/** A category named in a search or the size facets' query. */
export const CATEGORY_QUERY_MAX = 100;
/** The shop-by-size weight text ("7.5"): kg with at most 3 decimals. */
export const WEIGHT_QUERY_MAX = 10;
/** The storefront's opaque page cursor. */
export const CATALOG_CURSOR_MAX = 400;

// Size fit and children

/** A size's range ends: a newborn's 1 kg to a 40 kg child (grams); a 40 cm to a 200 cm waist (cm). */
export const FIT_LIMITS = {
  weight: { min: 1_000, max: 40_000 },
  waist: { min: 40, max: 200 },
} as const;
/** The lightest weight, in kg, shop by size and the size finder take (FIT_LIMITS.weight). */
export const WEIGHT_KG_MIN = FIT_LIMITS.weight.min / 1000;
/** The heaviest weight, in kg, shop by size and the size finder take (FIT_LIMITS.weight). */
export const WEIGHT_KG_MAX = FIT_LIMITS.weight.max / 1000;
/** The most children one account may keep. */
export const MAX_CHILD_PROFILES = 6;
/** A child's name on the profile. */
export const CHILD_NAME_MAX = 40;
/** Children are kept for nappies and pull-ups: born within the last 16 years. */
export const CHILD_MAX_AGE_YEARS = 16;
/** The most products one size-finder question may name. */
export const MAX_FINDER_PRODUCTS = 100;

// Nappy plans

/** The shortest cadence: a box every 2 weeks. */
export const PLAN_CADENCE_MIN_WEEKS = 2;
/** The longest cadence: a box every 8 weeks. */
export const PLAN_CADENCE_MAX_WEEKS = 8;
/** The most a product's plan saving may be (50%), in basis points. */
export const PLAN_SAVING_MAX_BP = 5_000;
/** The most lines (product and size) one plan may hold. */
export const PLAN_LINES_MAX = 20;
/** The next date may be moved to at most this many days ahead (12 weeks). */
export const PLAN_DATE_MAX_DAYS_AHEAD = 84;
/** A pause lasts at most this many days (26 weeks). */
export const PLAN_PAUSE_MAX_DAYS = 182;
/** The reason an admin gives for pausing or cancelling a plan, shortest: the customer reads it in the e-mail. */
export const PLAN_ADMIN_REASON_MIN = 3;
/** The reason an admin gives for pausing or cancelling a plan, longest: a short paragraph in the e-mail. */
export const PLAN_ADMIN_REASON_MAX = 300;

// Promo codes (admin)

/** The largest amount a code may take off or ask to be spent: R100,000. */
export const PROMO_MAX_AMOUNT_CENTS = 10_000_000;
/** The most uses a limit may name. */
export const PROMO_MAX_USES = 1_000_000;
/** A percentage off: from 1 to 100. */
export const PROMO_PERCENT_MIN = 1;
/** A percentage off: at most everything. */
export const PROMO_PERCENT_MAX = 100;
/** Products one code may be limited to. */
export const PROMO_PRODUCTS_MAX = 200;
/** Categories one code may be limited to. */
export const PROMO_CATEGORIES_MAX = 50;

// Returns

/** A customer's words on a return request or complaint: a few paragraphs. */
export const RETURN_DETAILS_MAX = 2000;
/** The admin's note, reason or outcome on a return request. */
export const RETURN_NOTE_MAX = 1000;

// Back-in-stock alerts

/** Open alerts one address may have at once: confirmed ones, and waiting ones from its own network (so a stranger cannot fill them). */
export const STOCK_ALERTS_PER_ADDRESS = 20;
/** Alerts waiting for their link (unconfirmed, not lapsed) asked from one client network, all addresses together. */
export const STOCK_ALERTS_WAITING_PER_NETWORK = 5;
/** Alerts asked for without logging in, per client network and minute. */
export const STOCK_ALERT_REQUESTS_PER_MINUTE = 5;
/** An alert's e-mailed link token (confirm, unsubscribe). */
export const STOCK_ALERT_TOKEN_MAX = 400;

// Admin lists

/** The admin's orders page. */
export const ADMIN_ORDER_PAGE_SIZE = 50;
/** The most orders one admin page may ask for. */
export const ADMIN_ORDER_PAGE_MAX = 200;
/** The shortest order search: shorter fragments match too much, and a trigram index cannot help them. */
export const ORDER_SEARCH_MIN = 2;
/** The longest order search. */
export const ORDER_SEARCH_MAX = 100;
/** A from/to date in the admin's order filters (an ISO date-time with its offset). */
export const DATE_FILTER_TEXT_MAX = 40;
/** The admin orders' opaque page cursor. */
export const ADMIN_ORDER_CURSOR_MAX = 200;
/** The search box of the admin's customers, plans and audit lists. */
export const ADMIN_SEARCH_MAX = 100;
/** The admin's plans page. */
export const ADMIN_PLAN_PAGE_SIZE = 50;
/** The audit trail's page. */
export const AUDIT_PAGE_SIZE = 50;
/** The admin's customers page. */
export const CUSTOMER_PAGE_SIZE = 50;
/** One customer's orders page in the admin. */
export const CUSTOMER_ORDERS_PAGE_SIZE = 20;
/** The admin's e-mail outbox page. */
export const EMAIL_PAGE_SIZE = 50;
/** The most outbox e-mails one page may ask for. */
export const EMAIL_PAGE_MAX = 200;
/** Rows each stock-holders list shows: the biggest holders first. */
export const STOCK_HOLDERS_SHOWN = 50;
/** The reason an admin gives for disabling an account. */
export const DISABLE_REASON_MAX = 300;
/** A VAT period is one month or two (SARS's Category A and B vendors file every two months). */
export const VAT_PERIOD_MONTHS_MAX = 2;
/** The most months one delivery-cost report covers. */
export const DELIVERY_COST_MONTHS_MAX = 12;
/** A launch-checklist item's id (`{#information-officer}`). */
export const LAUNCH_ITEM_ID_MAX = 60;

// Delivery: parcels, boxes and the couriers' webhooks

/** The longest side the admin accepts for a pack or a box: no courier parcel is bigger. */
export const MAX_SIDE_MM = 2_000;
/** The heaviest weight the admin accepts for a pack or a box: no courier parcel is heavier. */
export const MAX_WEIGHT_GRAMS = 70_000;
/** A box's code: a short name ("M"). */
export const BOX_CODE_MAX = 12;
/** A box's name. */
export const BOX_NAME_MAX = 40;
/** A courier webhook's body: larger than this is not a tracking event. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

// Media (admin uploads)

/** The largest upload the shop takes, in bytes (413 above it). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** A photo's pixels: more than any phone's default photo (48 MP cameras save 12 or 24 MP), small enough to decode safely. */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** A photo's longest side, read from its header before decoding (413 above it): twice a 48 MP camera's long side. */
export const MAX_PHOTO_SIDE = 20_000;
/** Long side over short side (415 above it): a 1600-wide rendition of a 1:10 photo is 16,000 tall, inside WebP's 16,383. */
export const MAX_PHOTO_ASPECT = 10;
