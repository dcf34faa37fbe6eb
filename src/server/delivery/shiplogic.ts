import type { PackedBox } from "#domain/parcels.js";
import type { CourierAddress, DoorRate } from "./courier-api.js";
import { type CourierRequest, courierJson } from "./courier-http.js";

/**
 * ShipLogic (The Courier Guy's platform), door rates: POST {base}/rates with collection and
 * delivery addresses and parcels in cm/kg; answers rates[] with rate (VAT included) and
 * service_level {code, name, delivery_date_from, delivery_date_to}. Paths and fields: decision 051.
 */
const LEVELS: Record<string, DoorRate["level"]> = { ECO: "economy", EXP: "express", OVN: "express" };

interface ShiplogicRates {
  rates?: { rate?: number; service_level?: { code?: string; delivery_date_to?: string } }[];
}

export function shiplogicAddress(address: CourierAddress) {
  return {
    type: "residential",
    street_address: address.street,
    local_area: address.suburb,
    city: address.city,
    zone: address.province,
    country: "ZA",
    code: address.postalCode,
  };
}

const cm = (mm: number) => Math.round(mm / 10);

export async function shiplogicDoorRates(
  request: CourierRequest,
  from: CourierAddress,
  to: CourierAddress,
  boxes: readonly PackedBox[],
): Promise<DoorRate[]> {
  const answer = await courierJson<ShiplogicRates>(request, "POST", "/rates", {
    collection_address: { ...shiplogicAddress(from), type: "business" },
    delivery_address: shiplogicAddress(to),
    parcels: boxes.map(({ box, weightGrams }) => ({
      submitted_length_cm: cm(box.lengthMm),
      submitted_width_cm: cm(box.widthMm),
      submitted_height_cm: cm(box.heightMm),
      submitted_weight_kg: Math.max(0.1, weightGrams / 1000),
    })),
  });
  const rates: DoorRate[] = [];
  for (const rate of answer.rates ?? []) {
    const level = LEVELS[rate.service_level?.code ?? ""];
    if (!level || typeof rate.rate !== "number" || rates.some((known) => known.level === level)) continue;
    rates.push({
      level,
      priceCents: Math.round(rate.rate * 100),
      deliveryDay: rate.service_level?.delivery_date_to?.slice(0, 10) ?? null,
    });
  }
  return rates;
}
