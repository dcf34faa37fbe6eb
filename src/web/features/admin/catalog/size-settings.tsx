import type { RefObject } from "react";
import { type Control, Controller, type FieldErrors } from "react-hook-form";
import type { ProductInput, ProductValues } from "#domain/schemas/catalog.js";
import { inputClass, sentence } from "../shared";
import { PhotoUpload } from "./photo-upload";
import { firstMessage, stockFieldText, stockFieldValue } from "./product-form-values";
import { heldText } from "./stock-model";

/** What each size had, kept while the size list is edited: a size removed and typed again gets it back. */
export interface RememberedSizeSettings {
  images: Record<string, string>;
  stock: Record<string, number>;
  /** A size's own price and pack count as typed; undefined when left blank. */
  prices: Record<string, string | number | undefined>;
  packs: Record<string, number | undefined>;
}

/** The message of an error on a per-size map as a whole (a size it does not list), not on one of its sizes. */
function ownMessage(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}

/** A blank field leaves the size's entry out; anything else is kept for the shared schema to judge. */
function withEntry<T>(map: Record<string, T> | undefined, size: string, value: T | undefined): Record<string, T> {
  const next = { ...map };
  if (value === undefined) delete next[size];
  else next[size] = value;
  return next;
}

/** The id of the stock field of the size at `index` in the size list. */
export const stockFieldId = (index: number) => `size-stock-${index}`;

interface SizeSettingsProps {
  control: Control<ProductInput, unknown, ProductValues>;
  errors: FieldErrors<ProductInput>;
  sizes: string[];
  /** Units unpaid orders hold per size (nothing for a new product). */
  held: Readonly<Record<string, number>>;
  remembered: RefObject<RememberedSizeSettings>;
}

/** The product form's per-size image and units in stock, one row per size in the size list. */
export function SizeSettings({ control, errors, sizes, held, remembered }: SizeSettingsProps) {
  const imagesError = firstMessage(errors.sizeImages);
  // A per-size price or pack count the schema refuses: its message names the field and the rule.
  const pricesError = ownMessage(errors.sizePrices) ?? ownMessage(errors.sizePackCounts);
  return (
    <fieldset className="grid gap-3 rounded-xl border border-stone-200 p-3">
      <legend className="px-1 text-sm font-semibold text-stone-800">Per-size price, pack, image and stock</legend>
      <p className="text-xs text-stone-600">
        A size without its own price costs the product's price; shoppers see the lowest as "from". Units in a pack give
        the price per unit. Stock is the units not yet sold, those held by unpaid orders included. A new size starts at
        0.
      </p>
      {imagesError && <p className="text-sm font-medium text-red-700">{sentence(imagesError)}</p>}
      {pricesError && <p className="text-sm font-medium text-red-700">{sentence(pricesError)}</p>}
      <Controller
        control={control}
        name="sizePrices"
        render={({ field: prices }) => (
          <Controller
            control={control}
            name="sizePackCounts"
            render={({ field: packs }) => (
              <Controller
                control={control}
                name="sizeImages"
                render={({ field: images }) => (
                  <Controller
                    control={control}
                    name="stock"
                    render={({ field: stock }) => (
                      <ul className="grid gap-3">
                        {sizes.map((size, index) => {
                          const stockId = stockFieldId(index);
                          const priceError = firstMessage(errors.sizePrices?.[size]);
                          const packError = firstMessage(errors.sizePackCounts?.[size]);
                          const heldNote = heldText(held[size] ?? 0);
                          const stockError = firstMessage(errors.stock?.[size]);
                          const describedBy = [heldNote && `${stockId}-held`, stockError && `${stockId}-error`]
                            .filter(Boolean)
                            .join(" ");
                          return (
                            <li
                              key={size}
                              className="grid gap-2 border-b border-stone-100 pb-3 last:border-0 last:pb-0"
                            >
                              <p className="text-sm font-semibold text-stone-900">{size}</p>
                              <div className="grid items-start gap-3 sm:grid-cols-2">
                                <div className="grid gap-1">
                                  <label htmlFor={`size-price-${index}`} className="text-xs text-stone-700">
                                    Price of {size} (R, blank: the product's)
                                  </label>
                                  <input
                                    id={`size-price-${index}`}
                                    className={`${inputClass} tabular`}
                                    type="number"
                                    inputMode="decimal"
                                    step="0.01"
                                    min="0.01"
                                    value={prices.value?.[size] ?? ""}
                                    aria-invalid={priceError ? true : undefined}
                                    aria-describedby={priceError ? `size-price-${index}-error` : undefined}
                                    onChange={(event) => {
                                      const price = event.target.value.trim() || undefined;
                                      remembered.current.prices[size] = price;
                                      prices.onChange(withEntry(prices.value, size, price));
                                    }}
                                  />
                                  {priceError && (
                                    <p id={`size-price-${index}-error`} className="text-sm font-medium text-red-700">
                                      {sentence(priceError)}
                                    </p>
                                  )}
                                </div>
                                <div className="grid gap-1">
                                  <label htmlFor={`size-pack-${index}`} className="text-xs text-stone-700">
                                    Units in a pack of {size} (optional)
                                  </label>
                                  <input
                                    id={`size-pack-${index}`}
                                    className={`${inputClass} tabular`}
                                    type="number"
                                    inputMode="numeric"
                                    min={1}
                                    step={1}
                                    value={stockFieldText(packs.value?.[size])}
                                    aria-invalid={packError ? true : undefined}
                                    aria-describedby={packError ? `size-pack-${index}-error` : undefined}
                                    onChange={(event) => {
                                      const count = event.target.value.trim() ? Number(event.target.value) : undefined;
                                      remembered.current.packs[size] = count;
                                      packs.onChange(withEntry(packs.value, size, count));
                                    }}
                                  />
                                  {packError && (
                                    <p id={`size-pack-${index}-error`} className="text-sm font-medium text-red-700">
                                      {sentence(packError)}
                                    </p>
                                  )}
                                </div>
                              </div>
                              <div className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
                                <div className="grid gap-1">
                                  <label htmlFor={`size-image-${index}`} className="text-xs text-stone-700">
                                    Image URL for {size} (optional)
                                  </label>
                                  <input
                                    id={`size-image-${index}`}
                                    className={inputClass}
                                    type="text"
                                    inputMode="url"
                                    value={images.value?.[size] ?? ""}
                                    onChange={(event) => {
                                      remembered.current.images[size] = event.target.value;
                                      images.onChange({ ...images.value, [size]: event.target.value });
                                    }}
                                  />
                                  <PhotoUpload
                                    compact
                                    label={`photo for ${size}`}
                                    onUploaded={(url) => {
                                      remembered.current.images[size] = url;
                                      images.onChange({ ...images.value, [size]: url });
                                    }}
                                  />
                                </div>
                                <div className="grid gap-1">
                                  <label htmlFor={stockId} className="text-xs text-stone-700">
                                    Stock of {size}
                                  </label>
                                  <input
                                    id={stockId}
                                    className={`${inputClass} tabular`}
                                    type="number"
                                    inputMode="numeric"
                                    min={0}
                                    step={1}
                                    value={stockFieldText(stock.value?.[size])}
                                    aria-invalid={stockError ? true : undefined}
                                    aria-describedby={describedBy || undefined}
                                    onChange={(event) => {
                                      const units = stockFieldValue(event.target.value);
                                      remembered.current.stock[size] = units;
                                      stock.onChange({ ...stock.value, [size]: units });
                                    }}
                                  />
                                  {heldNote && (
                                    <p id={`${stockId}-held`} className="text-xs font-medium text-amber-900">
                                      {heldNote}
                                    </p>
                                  )}
                                  {stockError && (
                                    <p id={`${stockId}-error`} className="text-sm font-medium text-red-700">
                                      {sentence(stockError)}
                                    </p>
                                  )}
                                </div>
                              </div>
                            </li>
                          );
                        })}
                      </ul>
                    )}
                  />
                )}
              />
            )}
          />
        )}
      />
    </fieldset>
  );
}
