import type { DirectoryPoint } from "./courier-api.js";
import { type CourierRequest, courierJson } from "./courier-http.js";
import { coordinates } from "./tcg-locker.js";

/**
 * Pargo's pickup points: GET {base}/api/v1/pickup-points (all, or near lat/lng within radius_km),
 * answering data[] with pargoPointCode, storeName, address1, suburb, city, postalcode and
 * businessHours (and latitude, longitude). Seen in third-party code and Pargo's widget only: unverified (decision 051).
 */
interface PargoPoints {
  data?: {
    pargoPointCode?: string;
    storeName?: string;
    address1?: string;
    suburb?: string;
    city?: string;
    postalcode?: string;
    latitude?: number | string;
    longitude?: number | string;
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
            ...coordinates(point.latitude, point.longitude),
            // Pargo lists only the counters that take parcels now.
            open: true,
          },
        ]
      : [],
  );
}
