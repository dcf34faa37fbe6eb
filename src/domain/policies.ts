/**
 * The shop's policies: owner-edited Markdown in content/policies/, versioned by the server at start
 * (src/server/policies/). Each has a stable address; each version its own under it.
 */
export { isPolicyKind, POLICY_KINDS, POLICY_ROUTE, type PolicyKind } from "./policy-kinds.js";

import { isPolicyKind, type PolicyKind } from "./policy-kinds.js";

/** The address of a policy's latest version, which is also its file's name (content/policies/{kind}.md). */
export const policyPath = (kind: PolicyKind) => `/${kind}`;

/** The address of one version, kept readable for as long as the shop runs: /terms/v/2. */
export const policyVersionPath = (kind: PolicyKind, version: number) => `/${kind}/v/${version}`;

/** /privacy -> { kind: "privacy", version: null }; /terms/v/2 -> { kind: "terms", version: 2 }; else null. */
export function policyOfPath(path: string): { kind: PolicyKind; version: number | null } | null {
  const match = /^\/([a-z-]+)(?:\/v\/([1-9]\d{0,8}))?\/?$/.exec(path);
  if (!match || !isPolicyKind(match[1])) return null;
  return { kind: match[1], version: match[2] ? Number(match[2]) : null };
}

/** The API address of a policy's latest version, or of one version: the query key of its page. */
export const policyApiPath = (kind: PolicyKind, version: number | null) =>
  version === null ? `/api/policies/${kind}` : `/api/policies/${kind}/versions/${version}`;

/** The API address of the Legal page's facts. */
export const LEGAL_API = "/api/legal";

/** The policies an order keeps the versions of (the agreement it was placed under). */
export const ORDER_POLICY_KINDS = ["terms", "return-policy", "privacy"] as const satisfies readonly PolicyKind[];

/** One version of a policy, as GET /api/policies/... answers it. */
export interface PolicyVersion {
  kind: PolicyKind;
  title: string;
  version: number;
  /** The date the front matter gives: YYYY-MM-DD. */
  effectiveDate: string;
  /** The Markdown rendered to HTML on the server (raw HTML in the Markdown is shown as text). */
  html: string;
  /** This version's own address. */
  path: string;
  /** Every version of this policy, newest first. */
  versions: { version: number; effectiveDate: string; path: string }[];
}

/** The Consumer Goods and Services Ombud: the alternative dispute resolution body of the shop's industry code (CPA s82). */
export const CGSO = {
  name: "Consumer Goods and Services Ombud (CGSO)",
  code: "Consumer Goods and Services Industry Code",
  website: "https://www.cgso.org.za",
  websiteLabel: "www.cgso.org.za",
  /** The CGSO's consumer complaints call centre and e-mail, as www.cgso.org.za publishes them. */
  phone: "0860 000 272",
  email: "info@cgso.org.za",
} as const;

/** One item of the Legal page (ECTA s43(1)): its letter, heading, sentences and links. */
export interface LegalItem {
  /** "a" to "r": the paragraph of s43(1) it answers. */
  item: string;
  title: string;
  text: string[];
  links?: { label: string; href: string }[];
}

/** GET /api/legal: what /legal shows. */
export interface LegalPage {
  /** True when the seller's details are the demo business's (SHOP_LEGAL_NAME unset in a test mode). */
  demo: boolean;
  seller: string;
  items: LegalItem[];
}
