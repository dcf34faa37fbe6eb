import type { CourierAddress, CourierBooking, DirectoryPoint, LockerBooking, LockerBoxRate } from "./courier-api.js";
import { type CourierRequest, courierJson } from "./courier-http.js";
import { shiplogicAddress } from "./shiplogic.js";
import { bookingOf } from "./shipments.js";

/**
 * TCG Locker (Pudo): GET {base}/api/v1/lockers-data (the directory), POST {base}/api/v1/rates
 * (door to locker: our address to a delivery terminal_id; answers rates[] per box type, each with
 * rate and a rate_revision_id to echo when booking). Paths and fields: decision 051; the names
 * inside lockers-data items are marked unverified there.
 */
interface TcgLocker {
  code?: string;
  name?: string;
  address?: string;
  /** Degrees, as text ("-26.1076"). */
  latitude?: string | number;
  longitude?: string | number;
  status?: string;
  detailed_address?: { sublocality?: string; locality?: string; postal_code?: string };
  openinghours?: { day?: string; open_time?: string; close_time?: string }[];
}

interface TcgRates {
  rates?: {
    rate?: number;
    rate_revision_id?: string;
    service_level?: {
      code?: string;
      box_type?: string;
      box_type_name?: string;
      dimensions?: { length?: number; width?: number; height?: number; weight?: number };
    };
  }[];
}

/** "Mon-Sun 06:00-22:00" when every day is the same, otherwise each day. */
export function hoursText(days: readonly { day?: string; open_time?: string; close_time?: string }[]): string {
  const each = days.map((day) => ({ day: (day.day ?? "").slice(0, 3), hours: `${day.open_time}-${day.close_time}` }));
  const first = each[0];
  const last = each.at(-1);
  if (!first || !last) return "Hours not given";
  if (each.every((day) => day.hours === first.hours)) return `${first.day}-${last.day} ${first.hours}`;
  return each.map((day) => `${day.day} ${day.hours}`).join(", ");
}

/** A point's latitude and longitude from a vendor's text or number; both null unless both are real degrees. */
export function coordinates(
  latitude: unknown,
  longitude: unknown,
): { latitude: number | null; longitude: number | null } {
  const lat = typeof latitude === "string" && latitude.trim() !== "" ? Number(latitude) : latitude;
  const lng = typeof longitude === "string" && longitude.trim() !== "" ? Number(longitude) : longitude;
  const real = (value: unknown, limit: number): value is number =>
    typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= limit;
  return real(lat, 90) && real(lng, 180) ? { latitude: lat, longitude: lng } : { latitude: null, longitude: null };
}

export async function tcgLockers(request: CourierRequest): Promise<DirectoryPoint[]> {
  const answer = await courierJson<TcgLocker[]>(request, "GET", "/api/v1/lockers-data");
  return (Array.isArray(answer) ? answer : []).flatMap((locker) =>
    locker.code && locker.name
      ? [
          {
            code: locker.code,
            name: locker.name,
            address: locker.address ?? "",
            suburb: locker.detailed_address?.sublocality ?? "",
            city: locker.detailed_address?.locality ?? "",
            postalCode: locker.detailed_address?.postal_code ?? "",
            hours: hoursText(locker.openinghours ?? []),
            ...coordinates(locker.latitude, locker.longitude),
            open: (locker.status ?? "online") === "online",
          },
        ]
      : [],
  );
}

export async function tcgLockerRates(
  request: CourierRequest,
  from: CourierAddress,
  terminalId: string,
): Promise<LockerBoxRate[]> {
  const answer = await courierJson<TcgRates>(request, "POST", "/api/v1/rates", {
    collection_address: { ...shiplogicAddress(from), type: "business" },
    delivery_address: { terminal_id: terminalId },
  });
  return (answer.rates ?? []).flatMap((rate) => {
    const level = rate.service_level;
    const size = level?.dimensions;
    if (!level?.box_type || !size || typeof rate.rate !== "number" || !rate.rate_revision_id) return [];
    return [
      {
        boxType: level.box_type,
        boxName: level.box_type_name ?? level.box_type,
        lengthMm: (size.length ?? 0) * 10,
        widthMm: (size.width ?? 0) * 10,
        heightMm: (size.height ?? 0) * 10,
        maxWeightGrams: (size.weight ?? 0) * 1000,
        priceCents: Math.round(rate.rate * 100),
        serviceLevelCode: level.code ?? "",
        rateRevisionId: rate.rate_revision_id,
      },
    ];
  });
}

/**
 * Books door to locker: POST {base}/api/v1/shipments with the locker's terminal_id and the
 * rate_revision_id its rate gave, echoed (a stale one is refused 409: the caller asks for rates
 * again). Fields beyond those two are ShipLogic's (same platform): unverified, decision 051.
 */
export async function tcgLockerBook(request: CourierRequest, booking: LockerBooking): Promise<CourierBooking> {
  const answer = await courierJson<Parameters<typeof bookingOf>[0]>(request, "POST", "/api/v1/shipments", {
    collection_address: { ...shiplogicAddress(booking.from), type: "business" },
    delivery_address: { terminal_id: booking.terminalId },
    delivery_contact: {
      name: booking.contact.name,
      mobile_number: booking.contact.mobileNumber,
      email: booking.contact.email,
    },
    service_level_code: booking.serviceLevelCode,
    rate_revision_id: booking.rateRevisionId,
    customer_reference: booking.reference,
  });
  return bookingOf(answer);
}
