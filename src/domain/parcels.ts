/**
 * Parcels (docs/decisions/051): each product size packs to a weight and three sides, the owner
 * has a few box sizes, and an order goes into the fewest boxes. The boxes decide the courier's
 * rate (weight and volume) and whether a locker fits. Pure: millimetres and grams, whole numbers.
 */

/** A packed product size: what one pack weighs and measures, as it goes into a box. */
export interface PackedSize {
  weightGrams: number;
  lengthMm: number;
  widthMm: number;
  heightMm: number;
}

/** One of the owner's boxes: its inside measures and the most it may weigh when full. */
export interface BoxSize {
  code: string;
  name: string;
  lengthMm: number;
  widthMm: number;
  heightMm: number;
  maxWeightGrams: number;
}

export interface PackItem extends PackedSize {
  quantity: number;
}

export interface PackedBox {
  box: BoxSize;
  /** The box's weight with what is in it (the box itself is not weighed: the owner's boxes are light). */
  weightGrams: number;
  packs: number;
}

export type Packing = { ok: true; boxes: PackedBox[] } | { ok: false; reason: "TOO_BIG" };

/** Boxes are filled to this share of their volume: packs are not liquid. */
export const BOX_FILL_PERCENT = 85;

/** A size's pack when the owner has not measured it: a mid-sized pack of nappies. */
export const DEFAULT_PACKED_SIZE: PackedSize = { weightGrams: 1_500, lengthMm: 380, widthMm: 250, heightMm: 120 };

/** The owner's boxes until they set their own (seeded into delivery_boxes). */
export const DEFAULT_BOX_SIZES: readonly BoxSize[] = [
  { code: "S", name: "Small box", lengthMm: 400, widthMm: 300, heightMm: 200, maxWeightGrams: 5_000 },
  { code: "M", name: "Medium box", lengthMm: 600, widthMm: 400, heightMm: 300, maxWeightGrams: 15_000 },
  { code: "L", name: "Large box", lengthMm: 800, widthMm: 600, heightMm: 400, maxWeightGrams: 25_000 },
];

const sides = (thing: { lengthMm: number; widthMm: number; heightMm: number }) =>
  [thing.lengthMm, thing.widthMm, thing.heightMm].sort((a, b) => b - a) as [number, number, number];

const volume = (thing: { lengthMm: number; widthMm: number; heightMm: number }) =>
  thing.lengthMm * thing.widthMm * thing.heightMm;

/** Whether one pack goes into the box at all, turned any way that keeps its sides square. */
export function fitsInside(
  item: Pick<PackedSize, "lengthMm" | "widthMm" | "heightMm">,
  box: Pick<BoxSize, "lengthMm" | "widthMm" | "heightMm">,
): boolean {
  const [a, b, c] = sides(item);
  const [x, y, z] = sides(box);
  return a <= x && b <= y && c <= z;
}

const usableVolume = (box: BoxSize) => Math.floor((volume(box) * BOX_FILL_PERCENT) / 100);

/**
 * Packs an order into the fewest boxes: the largest box is filled pack by pack (biggest packs
 * first) until the next would overflow its volume or weight, then the last box is swapped for the
 * smallest box its contents fit. Refused when a single pack fits no box.
 */
export function packOrder(items: readonly PackItem[], boxSizes: readonly BoxSize[]): Packing {
  const bySize = [...boxSizes].sort((a, b) => volume(a) - volume(b));
  const largest = bySize.at(-1);
  const packs = items
    .flatMap((item) => Array.from({ length: item.quantity }, () => item))
    .sort((a, b) => volume(b) - volume(a) || b.weightGrams - a.weightGrams);
  if (packs.length === 0) return { ok: true, boxes: [] };
  if (!largest || packs.some((pack) => !fitsInside(pack, largest) || pack.weightGrams > largest.maxWeightGrams)) {
    return { ok: false, reason: "TOO_BIG" };
  }

  const filled: PackItem[][] = [];
  let current: PackItem[] = [];
  let volumeUsed = 0;
  let weightUsed = 0;
  for (const pack of packs) {
    const over =
      volumeUsed + volume(pack) > usableVolume(largest) || weightUsed + pack.weightGrams > largest.maxWeightGrams;
    if (current.length > 0 && over) {
      filled.push(current);
      current = [];
      volumeUsed = 0;
      weightUsed = 0;
    }
    current.push(pack);
    volumeUsed += volume(pack);
    weightUsed += pack.weightGrams;
  }
  filled.push(current);

  return {
    ok: true,
    boxes: filled.map((contents) => {
      const weightGrams = contents.reduce((sum, pack) => sum + pack.weightGrams, 0);
      const contentVolume = contents.reduce((sum, pack) => sum + volume(pack), 0);
      const box =
        bySize.find(
          (candidate) =>
            contents.every((pack) => fitsInside(pack, candidate)) &&
            contentVolume <= usableVolume(candidate) &&
            weightGrams <= candidate.maxWeightGrams,
        ) ?? largest;
      return { box, weightGrams, packs: contents.length };
    }),
  };
}

/** A locker's compartment, as the locker company names and measures it. */
export interface LockerCompartment {
  code: string;
  lengthMm: number;
  widthMm: number;
  heightMm: number;
  maxWeightGrams: number;
}

/** The smallest compartment one box goes into, or null: a locker takes one box per order. */
export function compartmentFor(packing: Packing, compartments: readonly LockerCompartment[]): LockerCompartment | null {
  if (!packing.ok || packing.boxes.length !== 1) return null;
  const [only] = packing.boxes;
  if (!only) return null;
  return (
    [...compartments]
      .sort((a, b) => volume(a) - volume(b))
      .find((compartment) => fitsInside(only.box, compartment) && only.weightGrams <= compartment.maxWeightGrams) ??
    null
  );
}
