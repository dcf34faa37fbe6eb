/** Back-in-stock alerts' limits: the one place the browser and the server read them. */

/**
 * How long the link that confirms an alert asked for without logging in works; an alert still
 * unconfirmed then has lapsed: it frees its place, and asking again sends a new link.
 */
export const STOCK_ALERT_CONFIRM_HOURS = 48;
/** How long an unsubscribe link works: longer than any alert waits in practice. */
export const STOCK_ALERT_UNSUBSCRIBE_DAYS = 365;
/**
 * Open alerts one address may have at once: the confirmed ones, and those waiting for their link
 * that were asked from the asker's own network (another network's waiting alerts never take an
 * address's places, so a stranger cannot fill them). Confirming checks it again.
 */
export const STOCK_ALERTS_PER_ADDRESS = 20;
/** Alerts waiting for their link (unconfirmed, not lapsed) asked from one client network, all addresses together. */
export const STOCK_ALERTS_WAITING_PER_NETWORK = 5;
/** Alerts asked for without logging in, per client network and minute. */
export const STOCK_ALERT_REQUESTS_PER_MINUTE = 5;
