import { useState } from "react";
import { type Control, useController } from "react-hook-form";
import { DEFAULT_PACKED_SIZE, type PackedSize } from "#domain/parcels.js";
import type { ProductInput, ProductValues } from "#domain/schemas/catalog.js";
import { inputClass, sentence } from "../shared";
import { firstMessage } from "./product-form-values";

const SIDES = [
  { key: "weightGrams", label: "Weight (g)" },
  { key: "lengthMm", label: "Length (mm)" },
  { key: "widthMm", label: "Width (mm)" },
  { key: "heightMm", label: "Height (mm)" },
] as const;
type ParcelText = Record<keyof PackedSize, string>;
const BLANK: ParcelText = { weightGrams: "", lengthMm: "", widthMm: "", heightMm: "" };

/** What the admin typed as the shared schema reads it: a blank row is left out, a half-filled one NaN (refused with a message). */
function parcelsOf(texts: Record<string, ParcelText>, sizes: string[]): Record<string, PackedSize> {
  const value = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));
  return Object.fromEntries(
    sizes.flatMap((size) => {
      const text = texts[size];
      if (!text || Object.values(text).every((side) => side.trim() === "")) return [];
      return [
        [
          size,
          {
            weightGrams: value(text.weightGrams),
            lengthMm: value(text.lengthMm),
            widthMm: value(text.widthMm),
            heightMm: value(text.heightMm),
          },
        ],
      ];
    }),
  );
}

const textsOf = (parcels: Record<string, PackedSize> | undefined) =>
  Object.fromEntries(
    Object.entries(parcels ?? {}).map(([size, pack]) => [
      size,
      {
        weightGrams: String(pack.weightGrams),
        lengthMm: String(pack.lengthMm),
        widthMm: String(pack.widthMm),
        heightMm: String(pack.heightMm),
      },
    ]),
  );

/**
 * The product form's parcel sizes (decision 053): each size's pack as it goes into a box, its weight
 * and three sides. The courier's rate and whether a locker fits are worked out from them; a size left
 * blank packs as an average pack of nappies.
 */
export function SizeParcelFields({
  control,
  sizes,
}: {
  control: Control<ProductInput, unknown, ProductValues>;
  sizes: string[];
}) {
  const parcels = useController({ control, name: "sizeParcels" });
  const [texts, setTexts] = useState<Record<string, ParcelText>>(() => textsOf(parcels.field.value));
  const error = firstMessage(parcels.fieldState.error);

  return (
    <fieldset className="grid gap-3 rounded-xl border border-stone-200 p-3">
      <legend className="px-1 text-sm font-semibold text-stone-800">Parcel size per size</legend>
      <p className="text-xs text-stone-600">
        One pack as it goes into a delivery box: what it weighs and measures. Orders are packed into your boxes by
        these, which set the courier's rate and whether a locker fits. A size left blank counts as{" "}
        {DEFAULT_PACKED_SIZE.weightGrams} g, {DEFAULT_PACKED_SIZE.lengthMm} × {DEFAULT_PACKED_SIZE.widthMm} ×{" "}
        {DEFAULT_PACKED_SIZE.heightMm} mm.
      </p>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {sentence(error)}
        </p>
      )}
      <ul className="grid gap-3">
        {sizes.map((size, index) => (
          <li key={size} className="grid gap-1">
            <span className="text-sm font-semibold text-stone-900">{size}</span>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              {SIDES.map(({ key, label }) => (
                <label key={key} className="grid gap-1 text-xs text-stone-600">
                  {label}
                  <input
                    id={`size-parcel-${key}-${index}`}
                    className={`${inputClass} tabular`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    step={1}
                    placeholder={String(DEFAULT_PACKED_SIZE[key])}
                    aria-label={`${size}: ${label.toLowerCase()}`}
                    value={texts[size]?.[key] ?? ""}
                    onChange={(event) => {
                      const next = { ...texts, [size]: { ...BLANK, ...texts[size], [key]: event.target.value } };
                      setTexts(next);
                      parcels.field.onChange(parcelsOf(next, sizes));
                    }}
                  />
                </label>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
