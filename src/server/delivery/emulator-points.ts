/**
 * The emulator's lockers and pickup points (docs/decisions/051): a few hundred synthetic points
 * across South Africa, the same on every start (a seeded generator), near real towns' postal codes.
 * TCG Locker's and Pargo's own shapes are made from these by emulator.ts.
 */
export interface EmulatedPoint {
  code: string;
  name: string;
  street: string;
  suburb: string;
  city: string;
  province: string;
  postalCode: string;
  lat: number;
  lng: number;
  /** [day index 0 = Monday .. 6 = Sunday, open, close]; a day missing is closed. */
  hours: [number, string, string][];
}

/** Towns, their province code, a postal code, coordinates, and how many points each gets. */
const TOWNS: [city: string, province: string, code: number, lat: number, lng: number, weight: number][] = [
  ["Johannesburg", "GP", 2001, -26.2041, 28.0473, 5],
  ["Sandton", "GP", 2196, -26.1076, 28.0567, 4],
  ["Soweto", "GP", 1804, -26.2485, 27.854, 4],
  ["Randburg", "GP", 2194, -26.0936, 28.0064, 3],
  ["Pretoria", "GP", 2, -25.7479, 28.2293, 5],
  ["Centurion", "GP", 157, -25.8603, 28.1894, 3],
  ["Benoni", "GP", 1501, -26.1885, 28.3208, 2],
  ["Germiston", "GP", 1401, -26.2309, 28.1772, 2],
  ["Cape Town", "WC", 8001, -33.9249, 18.4241, 5],
  ["Bellville", "WC", 7530, -33.9022, 18.6292, 3],
  ["Khayelitsha", "WC", 7784, -34.0406, 18.6778, 3],
  ["Stellenbosch", "WC", 7600, -33.9321, 18.8602, 2],
  ["George", "WC", 6530, -33.963, 22.4617, 2],
  ["Durban", "KZN", 4001, -29.8587, 31.0218, 5],
  ["Umhlanga", "KZN", 4319, -29.7256, 31.0849, 2],
  ["Pietermaritzburg", "KZN", 3201, -29.6006, 30.3794, 3],
  ["Richards Bay", "KZN", 3900, -28.7807, 32.0383, 2],
  ["Gqeberha", "EC", 6001, -33.9608, 25.6022, 3],
  ["East London", "EC", 5201, -33.0153, 27.9116, 2],
  ["Mthatha", "EC", 5100, -31.5889, 28.7844, 2],
  ["Bloemfontein", "FS", 9301, -29.0852, 26.1596, 3],
  ["Welkom", "FS", 9459, -27.9774, 26.7351, 1],
  ["Polokwane", "LP", 699, -23.9045, 29.4689, 3],
  ["Thohoyandou", "LP", 950, -22.9456, 30.4849, 1],
  ["Mbombela", "MP", 1200, -25.4753, 30.9694, 2],
  ["eMalahleni", "MP", 1035, -25.8713, 29.2332, 2],
  ["Rustenburg", "NW", 299, -25.6676, 27.2421, 2],
  ["Mahikeng", "NW", 2745, -25.8652, 25.6442, 1],
  ["Kimberley", "NC", 8301, -28.7282, 24.7499, 2],
  ["Upington", "NC", 8801, -28.4478, 21.2561, 1],
];

const STREETS = [
  "Main Road",
  "Church Street",
  "Voortrekker Road",
  "Oxford Road",
  "Long Street",
  "Jan Smuts Avenue",
  "Nelson Mandela Drive",
  "Beach Road",
];
const HOSTS = ["Shoprite", "Clicks", "Caltex", "Engen", "PEP", "Checkers", "Spar", "Dis-Chem", "Sasol", "Boxer"];

/** A small deterministic generator (mulberry32): the directory is the same on every start. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pad4 = (n: number) => String(n).padStart(4, "0");

function makePoints(kind: "locker" | "pickup_point", perWeight: number, seed: number): EmulatedPoint[] {
  const random = generator(seed);
  const points: EmulatedPoint[] = [];
  let number = kind === "locker" ? 100 : 1000;
  for (const [city, province, code, lat, lng, weight] of TOWNS) {
    for (let i = 0; i < weight * perWeight; i += 1) {
      number += 1;
      const host = HOSTS[Math.floor(random() * HOSTS.length)] ?? "Shoprite";
      const street = STREETS[Math.floor(random() * STREETS.length)] ?? "Main Road";
      const postalCode = pad4(code + Math.floor(random() * 8));
      const lateClose = random() < 0.5;
      const weekday: [number, string, string][] = [0, 1, 2, 3, 4].map((day) => [
        day,
        "08:00",
        lateClose ? "20:00" : "17:00",
      ]);
      const hours: [number, string, string][] =
        kind === "locker"
          ? [0, 1, 2, 3, 4, 5, 6].map((day) => [day, "06:00", "22:00"])
          : [...weekday, [5, "08:00", "13:00"]];
      points.push({
        code: kind === "locker" ? `CG${number}` : `pup${number}`,
        name: kind === "locker" ? `${host} ${city} Locker ${i + 1}` : `${host} ${city} ${i + 1}`,
        street: `${1 + Math.floor(random() * 300)} ${street}`,
        suburb: `${city} ${["Central", "North", "East", "West", "South"][i % 5]}`,
        city,
        province,
        postalCode,
        lat: Math.round((lat + (random() - 0.5) * 0.1) * 1e5) / 1e5,
        lng: Math.round((lng + (random() - 0.5) * 0.1) * 1e5) / 1e5,
        hours,
      });
    }
  }
  return points;
}

/** 276 lockers and 276 pickup points, in the same towns. */
export const EMULATED_LOCKERS: readonly EmulatedPoint[] = makePoints("locker", 3, 51);
export const EMULATED_PICKUP_POINTS: readonly EmulatedPoint[] = makePoints("pickup_point", 3, 52);

/** TCG Locker's compartments (box_type), inside measures in cm and the most each takes in kg. */
export const EMULATED_LOCKER_BOXES = [
  { box_type: "XS", box_type_name: "V4-XS", length: 60, width: 17, height: 8, weight: 2, rand: 50 },
  { box_type: "S", box_type_name: "V4-S", length: 60, width: 41, height: 8, weight: 5, rand: 60 },
  { box_type: "M", box_type_name: "V4-M", length: 60, width: 41, height: 19, weight: 10, rand: 70 },
  { box_type: "L", box_type_name: "V4-L", length: 60, width: 41, height: 41, weight: 15, rand: 85 },
  { box_type: "XL", box_type_name: "V4-XL", length: 60, width: 41, height: 69, weight: 20, rand: 110 },
] as const;
