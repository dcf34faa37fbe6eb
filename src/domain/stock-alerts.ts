/** Back-in-stock alerts' limits: the one place the browser and the server read them. */

/** How long the link that confirms an alert asked for without logging in works. */
export const STOCK_ALERT_CONFIRM_HOURS = 48;
/** How long an unsubscribe link works: longer than any alert waits in practice. */
export const STOCK_ALERT_UNSUBSCRIBE_DAYS = 365;
/** Open alerts one address may have at once (confirmed or waiting for its link). */
export const STOCK_ALERTS_PER_ADDRESS = 20;
/** Alerts asked for without logging in, per client network and minute. */
export const STOCK_ALERT_REQUESTS_PER_MINUTE = 5;
