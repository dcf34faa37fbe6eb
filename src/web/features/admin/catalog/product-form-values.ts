import { DEFAULT_MAX_PER_ORDER } from "#domain/limits.js";
import { type AdminProduct, type ProductInput, sizeList } from "#domain/schemas/catalog.js";
import { ApiError } from "#web/lib/api.js";

/** The product form's values: the product's (its stock per size included), or empty for a new one. */
export function formDefaults(product: AdminProduct | null): ProductInput {
  return {
    name: product?.name ?? "",
    category: product?.category ?? "",
    price: product?.price ?? "",
    image: product?.image ?? "",
    description: product?.description ?? "",
    sizes: product ? product.sizes.join(", ") : "",
    sizeImages: { ...product?.sizeImages },
    // Only the sizes that cost more than the product's "from" price show their own; the rest cost the price.
    sizePrices: product ? ownSizePrices(product) : {},
    sizePackCounts: { ...product?.sizePackCounts },
    packUnit: product?.packUnit ?? "",
    stock: product ? Object.fromEntries(product.sizes.map((size) => [size, product.stock[size] ?? 0])) : {},
    promoText: product?.promoText ?? "",
    vatClass: product?.vatClass ?? "standard",
    maxPerOrder: product?.maxPerOrder ?? DEFAULT_MAX_PER_ORDER,
    multibuyTiers: (product?.multibuyTiers ?? []).map(({ minPacks, offBp }) => ({ minPacks, offBp })),
    absorbency: product?.absorbency == null ? "" : String(product.absorbency),
    planSavingPercent: product?.planSavingOwnBp == null ? "" : String(product.planSavingOwnBp / 100),
    fitMeasure: product?.fitMeasure ?? null,
    sizeFits: { ...product?.sizeFits },
    sizeParcels: { ...product?.sizeParcels },
  };
}

function ownSizePrices(product: AdminProduct): Record<string, string> {
  const prices = product.sizePrices ?? {};
  return Object.fromEntries(
    Object.entries(prices).filter(([size, price]) => product.sizes.includes(size) && price !== product.price),
  );
}

/**
 * A per-size setting the form leaves out when blank (a size's own price, its pack count): what
 * was remembered for each size listed, nothing for the rest.
 */
export function presentForSizes<T>(sizes: readonly string[], remembered: Readonly<Record<string, T | undefined>>) {
  return Object.fromEntries(
    sizes.flatMap((size) => (remembered[size] === undefined ? [] : [[size, remembered[size]]])),
  ) as Record<string, T>;
}

/** The sizes the text names, as the shared schema reads them (trimmed, empties and repeats dropped). */
export function sizesOf(value: ProductInput["sizes"] | undefined): string[] {
  const parsed = sizeList.safeParse(value ?? "");
  return parsed.success ? parsed.data : [];
}

/**
 * A per-size setting for exactly the sizes listed: what was remembered for a size (also one
 * removed and typed again), `fallback` for a new one. New sizes start at 0 units.
 */
export function valuesForSizes<T>(sizes: readonly string[], remembered: Readonly<Record<string, T>>, fallback: T) {
  return Object.fromEntries(sizes.map((size) => [size, remembered[size] ?? fallback])) as Record<string, T>;
}

/** A stock field's text: an emptied field (NaN) stays empty rather than showing "NaN". */
export function stockFieldText(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? "" : String(value);
}

/** A stock field's number: an empty field is NaN, which the shared schema refuses with its own message. */
export function stockFieldValue(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

/** The server's refusal to set a size's stock below what unpaid orders hold (409 STOCK_HELD), or null. */
export function stockHeldMessage(error: unknown): string | null {
  return error instanceof ApiError && error.code === "STOCK_HELD" ? error.message : null;
}

export function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  if ("message" in error && typeof error.message === "string" && error.message) return error.message;
  for (const nested of Object.values(error)) {
    const message = firstMessage(nested);
    if (message) return message;
  }
  return undefined;
}
