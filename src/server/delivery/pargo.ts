import type { DirectoryPoint } from "./courier-api.js";
import { type CourierRequest, courierJson } from "./courier-http.js";

/**
 * Pargo's pickup points: GET {base}/api/v1/pickup-points (all, or near lat/lng within radius_km),
 * answering data[] with pargoPointCode, storeName, address1, suburb, city, postalcode and
 * businessHours. Seen in third-party code and Pargo's widget only: unverified (decision 051).
 */
interface PargoPoints {
  data?: {
    pargoPointCode?: string;
    storeName?: string;
    address1?: string;
    suburb?: string;
    city?: string;
    postalcode?: string;
    businessHours?: string;
  }[];
}

export async function pargoPickupPoints(request: CourierRequest): Promise<DirectoryPoint[]> {
  const answer = await courierJson<PargoPoints>(request, "GET", "/api/v1/pickup-points");
  return (answer.data ?? []).flatMap((point) =>
    point.pargoPointCode && point.storeName
      ? [
          {
            code: point.pargoPointCode,
            name: point.storeName,
            address: [point.address1, point.suburb, point.city, point.postalcode].filter(Boolean).join(", "),
            suburb: point.suburb ?? "",
            city: point.city ?? "",
            postalCode: point.postalcode ?? "",
            hours: point.businessHours ?? "Hours not given",
            // Pargo lists only the counters that take parcels now.
            open: true,
          },
        ]
      : [],
  );
}
