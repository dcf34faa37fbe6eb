/** How long a link to confirm a new address works: a day, as people read mail later than a reset. */
export const EMAIL_CHANGE_HOURS = 24;
