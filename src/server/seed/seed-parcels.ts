import type { PackedSize } from "#domain/parcels.js";
import type { SeedProduct } from "./seed-data.js";

/**
 * The starter catalogue's packed sizes (docs/decisions/051): a pack's weight and sides by kind of
 * product, so a fresh shop quotes rates and fits lockers from its first order. The owner measures
 * and corrects them in the admin (round 2); a size missing falls back to DEFAULT_PACKED_SIZE.
 */
const PACKS: Record<SeedProduct["category"], PackedSize> = {
  baby: { weightGrams: 2_000, lengthMm: 400, widthMm: 250, heightMm: 150 },
  kids: { weightGrams: 1_800, lengthMm: 380, widthMm: 250, heightMm: 150 },
  adult: { weightGrams: 1_800, lengthMm: 400, widthMm: 280, heightMm: 150 },
  pads: { weightGrams: 400, lengthMm: 220, widthMm: 120, heightMm: 90 },
  extras: { weightGrams: 600, lengthMm: 200, widthMm: 120, heightMm: 80 },
};
const JUMBO: PackedSize = { weightGrams: 3_500, lengthMm: 450, widthMm: 300, heightMm: 200 };

export function seedParcelColumns(product: Pick<SeedProduct, "name" | "category" | "sizes">) {
  const pack = /jumbo|value box|bulk/i.test(product.name) ? JUMBO : PACKS[product.category];
  return { sizeParcels: Object.fromEntries(product.sizes.map((size) => [size, pack])) };
}
