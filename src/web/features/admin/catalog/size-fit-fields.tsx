import { useState } from "react";
import { type Control, useController, useWatch } from "react-hook-form";
import { FIT_LIMITS } from "#domain/limits.js";
import type { ProductInput, ProductValues } from "#domain/schemas/catalog.js";
import { FIT_UNIT, type FitMeasure, type FitRange, fitText, gramsAsKg } from "#domain/size-fit.js";
import { inputClass, sentence } from "../shared";
import { firstMessage } from "./product-form-values";

type RangeText = { min: string; max: string };

/** What the admin typed (kg or cm) as the shared schema reads it: grams or cm; a half-filled row is NaN, which it refuses. */
function rangesOf(measure: FitMeasure, texts: Record<string, RangeText>, sizes: string[]): Record<string, FitRange> {
  const scale = measure === "weight" ? 1000 : 1;
  const value = (text: string) => (text.trim() === "" ? Number.NaN : Math.round(Number(text) * scale * 1000) / 1000);
  return Object.fromEntries(
    sizes.flatMap((size) => {
      const text = texts[size];
      if (!text || (text.min.trim() === "" && text.max.trim() === "")) return [];
      return [[size, { min: value(text.min), max: value(text.max) }]];
    }),
  );
}

function textsOf(measure: FitMeasure | null | undefined, fits: Record<string, FitRange> | undefined) {
  const show = measure === "weight" ? gramsAsKg : String;
  return Object.fromEntries(
    Object.entries(fits ?? {}).map(([size, range]) => [size, { min: show(range.min), max: show(range.max) }]),
  );
}

/**
 * The product form's size guide (issue 42): what the sizes fit (the baby's weight in kg, or the
 * wearer's waist in cm) and each size's smallest and largest, both included. A fieldset of its own.
 */
export function SizeFitFields({
  control,
  sizes,
}: {
  control: Control<ProductInput, unknown, ProductValues>;
  sizes: string[];
}) {
  const measureField = useController({ control, name: "fitMeasure" });
  const fitsField = useController({ control, name: "sizeFits" });
  const measure = useWatch({ control, name: "fitMeasure" }) ?? null;
  const [texts, setTexts] = useState<Record<string, RangeText>>(() => textsOf(measure, fitsField.field.value));
  const error = firstMessage(fitsField.fieldState.error) ?? firstMessage(measureField.fieldState.error);

  const update = (nextMeasure: FitMeasure | null, nextTexts: Record<string, RangeText>) => {
    setTexts(nextTexts);
    fitsField.field.onChange(nextMeasure ? rangesOf(nextMeasure, nextTexts, sizes) : {});
  };

  return (
    <fieldset className="grid gap-3 rounded-xl border border-stone-200 p-3">
      <legend className="px-1 text-sm font-semibold text-stone-800">Size guide</legend>
      <p className="text-xs text-stone-600">
        What each size fits, as printed on the pack: shoppers see it on the product page, and the size finder recommends
        by it. Both ends are included; leave a size blank if it has no range.
      </p>
      <label className="grid gap-1 text-sm font-medium text-stone-800">
        Sizes fit by
        <select
          className="select-native sm:max-w-xs"
          value={measure ?? ""}
          onChange={(event) => {
            const next = (event.target.value || null) as FitMeasure | null;
            measureField.field.onChange(next);
            update(next, texts);
          }}
        >
          <option value="">No size guide</option>
          <option value="weight">Baby's weight (kg)</option>
          <option value="waist">Waist (cm)</option>
        </select>
      </label>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {sentence(error)}
        </p>
      )}
      {measure && (
        <ul className="grid gap-2">
          {sizes.map((size, index) => (
            <li key={size} className="grid grid-cols-[minmax(0,1fr)_6rem_6rem] items-end gap-2">
              <span className="truncate pb-2.5 text-sm text-stone-800">{size}</span>
              {(["min", "max"] as const).map((end) => (
                <label key={end} className="grid gap-1 text-xs text-stone-600">
                  {end === "min" ? "From" : "To"} ({FIT_UNIT[measure]})
                  <input
                    id={`size-fit-${end}-${index}`}
                    className={`${inputClass} tabular`}
                    type="number"
                    inputMode="decimal"
                    step={measure === "weight" ? "0.1" : "1"}
                    aria-label={`${size}: ${end === "min" ? "from" : "to"} ${FIT_UNIT[measure]}`}
                    value={texts[size]?.[end] ?? ""}
                    onChange={(event) => {
                      const row = { min: "", max: "", ...texts[size], [end]: event.target.value };
                      update(measure, { ...texts, [size]: row });
                    }}
                  />
                </label>
              ))}
            </li>
          ))}
        </ul>
      )}
      {measure && <p className="text-xs text-stone-600">Each end within {fitText(measure, FIT_LIMITS[measure])}.</p>}
    </fieldset>
  );
}
