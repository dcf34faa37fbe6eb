import type { renderEmail as renderWithTemplates } from "./templates/index.js";

/**
 * A message as sent (templates/index.ts), with React Email loaded on the first message rather
 * than at start: it takes about 45 MB of memory, which a shop that has sent nothing need not hold.
 */
export const renderEmail: typeof renderWithTemplates = async (kind, data, shop, sendTime) => {
  const templates = await import("./templates/index.js");
  return templates.renderEmail(kind, data, shop, sendTime);
};
