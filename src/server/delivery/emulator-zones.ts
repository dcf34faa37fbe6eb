/**
 * The courier emulator's zone table (docs/decisions/051): South African postal codes by the kind
 * of place they serve, which sets the emulated rate and days. Ranges follow the Post Office's
 * numbering (metros' blocks; the rural blocks of Limpopo, Mpumalanga, northern KwaZulu-Natal, the
 * former Transkei, the Northern Cape and the rural Free State). Written for the emulator alone.
 */
export type EmulatedZone = "metro" | "regional" | "outlying";

const RANGES: [from: number, to: number, zone: EmulatedZone][] = [
  [1, 199, "metro"], // Tshwane
  [1400, 1699, "metro"], // Ekurhuleni
  [1700, 1799, "metro"], // West Rand (Roodepoort, Krugersdorp)
  [2000, 2199, "metro"], // Johannesburg
  [4000, 4099, "metro"], // eThekwini (Durban)
  [6000, 6099, "metro"], // Nelson Mandela Bay
  [7100, 8099, "metro"], // Cape Town
  [700, 999, "outlying"], // Limpopo
  [1200, 1399, "outlying"], // Mpumalanga's rural east
  [3100, 3999, "outlying"], // northern KwaZulu-Natal
  [5000, 5199, "outlying"], // the former Transkei
  [8100, 8999, "outlying"], // Northern Cape
  [9400, 9999, "outlying"], // the rural Free State
];

/** The zone of a four-digit code, or null for a code no address has ("0000", letters). */
export function zoneOfPostalCode(code: string): EmulatedZone | null {
  if (!/^\d{4}$/.test(code)) return null;
  const n = Number(code);
  if (n === 0) return null;
  return RANGES.find(([from, to]) => n >= from && n <= to)?.[2] ?? "regional";
}

/** ShipLogic-style service levels the emulator offers, per zone: rand, per chargeable kg over 2, business days. */
export const EMULATED_DOOR_RATES: Record<
  EmulatedZone,
  Record<"ECO" | "EXP", { baseRand: number; perKgRand: number; days: number }>
> = {
  metro: { ECO: { baseRand: 70, perKgRand: 4, days: 2 }, EXP: { baseRand: 125, perKgRand: 7, days: 1 } },
  regional: { ECO: { baseRand: 95, perKgRand: 6, days: 3 }, EXP: { baseRand: 170, perKgRand: 10, days: 2 } },
  outlying: { ECO: { baseRand: 150, perKgRand: 10, days: 5 }, EXP: { baseRand: 260, perKgRand: 16, days: 3 } },
};

/** Couriers charge by the greater of the weight and the volume (cm³ / 5000). */
export function chargeableKg(parcels: readonly { l: number; w: number; h: number; kg: number }[]): number {
  return parcels.reduce((sum, p) => sum + Math.max(p.kg, (p.l * p.w * p.h) / 5000), 0);
}

/** An emulated door rate in rand (VAT included), rounded to the cent. */
export function emulatedDoorRate(zone: EmulatedZone, level: "ECO" | "EXP", kg: number): number {
  const table = EMULATED_DOOR_RATES[zone][level];
  return Math.round((table.baseRand + Math.max(0, Math.ceil(kg) - 2) * table.perKgRand) * 100) / 100;
}
