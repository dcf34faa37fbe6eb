import { type Control, Controller, type FieldErrors, type UseFormRegister, useFieldArray } from "react-hook-form";
import { MULTIBUY_LIMITS } from "#domain/limits.js";
import type { ProductInput, ProductValues } from "#domain/schemas/catalog.js";
import { Button } from "#web/components/ui/button.js";
import { inputClass, sentence } from "../shared";
import { firstMessage } from "./product-form-values";

/** A percentage as typed ("3", "2.5") in basis points (300, 250); blank or not a number is NaN, which the schema refuses. */
const percentToBp = (text: unknown): number => {
  const value = String(text ?? "").trim();
  return value === "" ? Number.NaN : Math.round(Number(value) * 100);
};

interface MultibuyFieldsetProps {
  control: Control<ProductInput, unknown, ProductValues>;
  register: UseFormRegister<ProductInput>;
  errors: FieldErrors<ProductInput>;
}

/**
 * The product's multi-buy tiers (docs/decisions/047): up to MULTIBUY_LIMITS.tiers rows of "packs
 * from" and "% off"; packs of every size count together. The shared schema judges them (tiersProblem).
 */
export function MultibuyFieldset({ control, register, errors }: MultibuyFieldsetProps) {
  const { fields, append, remove } = useFieldArray({ control, name: "multibuyTiers" });
  const message = firstMessage(errors.multibuyTiers);
  const last = fields.at(-1) as { minPacks?: number; offBp?: number } | undefined;
  return (
    <fieldset className="grid gap-3 rounded-xl border border-stone-200 p-3" aria-describedby="multibuy-hint">
      <legend className="px-1 text-sm font-semibold text-stone-800">Multi-buy</legend>
      <p id="multibuy-hint" className="text-xs text-stone-600">
        Less per pack when a shopper buys more, for example 2+ packs 3% off, 4+ packs 6% off. Packs of different sizes
        of this product count together. Up to {MULTIBUY_LIMITS.tiers} tiers, each saving more than the one before.
      </p>
      {message && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {sentence(message)}
        </p>
      )}
      {fields.map((tier, index) => (
        <div key={tier.id} className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm font-medium text-stone-800">
            Packs from
            <input
              className={`${inputClass} tabular w-28`}
              type="number"
              inputMode="numeric"
              step="1"
              min={MULTIBUY_LIMITS.minPacks.min}
              max={MULTIBUY_LIMITS.minPacks.max}
              {...register(`multibuyTiers.${index}.minPacks`, { valueAsNumber: true })}
            />
          </label>
          <label htmlFor={`multibuy-off-${index}`} className="grid gap-1 text-sm font-medium text-stone-800">
            % off
            {/* The form holds basis points; the field shows and takes a percentage, so it is left uncontrolled. */}
            <Controller
              control={control}
              name={`multibuyTiers.${index}.offBp`}
              render={({ field }) => (
                <input
                  className={`${inputClass} tabular w-28`}
                  type="number"
                  inputMode="decimal"
                  step="0.01"
                  min="0.01"
                  max="50"
                  id={`multibuy-off-${index}`}
                  name={field.name}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  defaultValue={Number.isFinite(tier.offBp) ? tier.offBp / 100 : ""}
                  onChange={(event) => field.onChange(percentToBp(event.target.value))}
                />
              )}
            />
          </label>
          <Button variant="outline" onClick={() => remove(index)} aria-label={`Remove multi-buy tier ${index + 1}`}>
            Remove
          </Button>
        </div>
      ))}
      {fields.length < MULTIBUY_LIMITS.tiers && (
        <div>
          <Button
            variant="outline"
            onClick={() =>
              append(
                { minPacks: (last?.minPacks ?? 0) + 2 || 2, offBp: (last?.offBp ?? 0) + 300 },
                { shouldFocus: true },
              )
            }
          >
            Add a tier
          </Button>
        </div>
      )}
    </fieldset>
  );
}
