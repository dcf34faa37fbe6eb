/**
 * The couriers an admin picks from at Mark as Shipped, and where each lets a customer follow a
 * parcel. A courier not listed here (typed as "Other") is shown without a tracking link.
 */
export const COURIERS = [
  { name: "The Courier Guy", tracking: "https://portal.thecourierguy.co.za/track?ref=" },
  { name: "Aramex", tracking: "https://www.aramex.co.za/tools/track?l=" },
  { name: "PostNet", tracking: "https://www.postnet.co.za/track?waybill=" },
  { name: "Pargo", tracking: "https://pargo.co.za/track-trace/?code=" },
  { name: "Fastway", tracking: "https://www.fastway.co.za/our-services/track-your-parcel/?l=" },
  { name: "DSV", tracking: "https://www.dsv.com/en/tools/track-and-trace?reference=" },
] as const;

export const COURIER_NAMES: readonly string[] = COURIERS.map((courier) => courier.name);

/** The courier's page for this tracking number, or null for an unknown courier or no number. */
export function trackingUrl(courier: string | null, trackingNumber: string | null): string | null {
  if (!courier || !trackingNumber) return null;
  const known = COURIERS.find((candidate) => candidate.name.toLowerCase() === courier.trim().toLowerCase());
  return known ? `${known.tracking}${encodeURIComponent(trackingNumber.trim())}` : null;
}
