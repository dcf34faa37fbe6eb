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
