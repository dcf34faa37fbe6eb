/** Back-in-stock alerts' links: how long they work (the alerts' caps are in src/domain/limits.ts). */

/**
 * How long the link that confirms an alert asked for without logging in works; an alert still
 * unconfirmed then has lapsed: it frees its place, and asking again sends a new link.
 */
export const STOCK_ALERT_CONFIRM_HOURS = 48;
/** How long an unsubscribe link works: longer than any alert waits in practice. */
export const STOCK_ALERT_UNSUBSCRIBE_DAYS = 365;
