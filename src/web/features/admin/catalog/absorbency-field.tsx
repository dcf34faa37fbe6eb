import type { UseFormRegister } from "react-hook-form";
import { ABSORBENCY_LABELS, ABSORBENCY_LEVELS } from "#domain/absorbency.js";
import type { ProductInput } from "#domain/schemas/catalog.js";
import { describedBy, Field } from "../shared";

const ID = "admin-product-absorbency";

/**
 * The product's absorbency (issue 42): a level 1-6 for adult and period products, which the
 * storefront's "Shop by size" filters by ("at least") and the product page names. Empty: not said,
 * and the product never matches an absorbency filter.
 */
export function AbsorbencyField({ register, error }: { register: UseFormRegister<ProductInput>; error?: string }) {
  return (
    <Field
      id={ID}
      label="Absorbency (optional)"
      hint="For adult and period products. Shoppers filter by it: a level shows for 'at least' that level."
      error={error}
    >
      <select
        className="select-native sm:max-w-xs"
        {...describedBy(ID, { hasHint: true, error })}
        {...register("absorbency")}
      >
        <option value="">Not said</option>
        {ABSORBENCY_LEVELS.map((level) => (
          <option key={level} value={String(level)}>
            {level} of 6: {ABSORBENCY_LABELS[level]}
          </option>
        ))}
      </select>
    </Field>
  );
}
