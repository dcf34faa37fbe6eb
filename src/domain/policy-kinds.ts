/**
 * The policies' kinds and the browser's route for their addresses: kept apart from policies.ts so
 * the storefront's entry (which routes to them) carries only this, not the pages' own helpers.
 */
export const POLICY_KINDS = ["terms", "return-policy", "privacy", "paia-manual"] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export function isPolicyKind(value: unknown): value is PolicyKind {
  return typeof value === "string" && (POLICY_KINDS as readonly string[]).includes(value);
}

/** Every policy address, plain or versioned (/terms, /terms/v/2): the browser's route. */
export const POLICY_ROUTE = new RegExp(`^/(?:${POLICY_KINDS.join("|")})(?:/v/[1-9]\\d{0,8})?/?$`);
