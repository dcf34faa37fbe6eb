/**
 * The seller's name as the law reads it, from its legal name and status: "Snug & Dry Demo Trading
 * (Pty) Ltd", "Thandi Mokoena, sole proprietor". Shown in the footer, on /legal and in the policies.
 */
export function legalEntityName(legalName: string, legalStatus: string): string {
  if (!legalStatus) return legalName;
  // A company's suffix follows its name; any other status is said after a comma.
  const suffix = /^(\(|ltd\b|limited\b|inc\b|cc\b|npc\b|soc\b|rf\b)/i.test(legalStatus);
  return suffix ? `${legalName} ${legalStatus}` : `${legalName}, ${legalStatus}`;
}

/**
 * The made-up shop's contact details: what SHOP_EMAIL, SHOP_PHONE and SHOP_ADDRESS default to in
 * the test modes. A live shop must set its own (src/server/platform/config.ts): a buyer shown a fictitious
 * address or phone may cancel within 14 days instead of 7 (ECTA s43(1)(b)-(c), s43(3)).
 */
export const DEMO_SHOP_CONTACT = {
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
} as const;

export type ShopContactDetail = keyof typeof DEMO_SHOP_CONTACT;

/** How a contact detail is compared: case, spaces and punctuation do not make a demo value the shop's own. */
function comparable(detail: ShopContactDetail, value: string): string {
  const lower = value.trim().toLowerCase();
  if (detail === "phone") return lower.replace(/[^\d]/g, "").replace(/^0/, "27");
  return lower.replace(/[^\p{L}\p{N}@]+/gu, " ").trim();
}

/** Whether a contact detail is the demo shop's, however it is written ("+27 21 555 0134", "021-555-0134"). */
export function isDemoContact(detail: ShopContactDetail, value: string): boolean {
  return comparable(detail, value) === comparable(detail, DEMO_SHOP_CONTACT[detail]);
}
