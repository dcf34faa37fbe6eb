import { type Product, type ProductInput, sizeList } from "../../../domain/schemas/catalog";

/** The product form's values: the product's, or empty for a new one. */
export function formDefaults(product: Product | null): ProductInput {
  return {
    name: product?.name ?? "",
    category: product?.category ?? "",
    price: product?.price ?? "",
    image: product?.image ?? "",
    description: product?.description ?? "",
    sizes: product ? product.sizes.join(", ") : "",
    sizeImages: { ...product?.sizeImages },
    sizeOutOfStock: { ...product?.sizeOutOfStock },
    outOfStock: product?.outOfStock ?? false,
    promoText: product?.promoText ?? "",
  };
}

/** The sizes the text names, as the shared schema reads them (trimmed, empties and repeats dropped). */
export function sizesOf(value: ProductInput["sizes"] | undefined): string[] {
  const parsed = sizeList.safeParse(value ?? "");
  return parsed.success ? parsed.data : [];
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
