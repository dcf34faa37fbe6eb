import { useEffect, useRef, useState } from "react";
import { ABSORBENCY_LABELS, ABSORBENCY_LEVELS } from "#domain/absorbency.js";
import type { CatalogFilter } from "#domain/catalog.js";
import { WEIGHT_KG_MAX, WEIGHT_KG_MIN } from "#domain/limits.js";
import { weightGramsOf } from "#domain/shop-by-size.js";
import { gramsAsKg } from "#domain/size-fit.js";
import { useSizeFacets } from "./api/get-size-facets";
import { ChildChoices, FinderNotes } from "./size-finder";
import { type SizeFinderState, useSizeFinder } from "./use-size-finder";

interface ShopBySizeProps {
  id: string;
  filter: CatalogFilter;
  onChange: (patch: Partial<CatalogFilter>) => void;
}

const FIELD = "select-native mt-1 w-full";
const INPUT =
  "mt-1 min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500 hover:border-stone-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 aria-[invalid=true]:border-red-700 sm:text-sm";

/**
 * "Shop by size" (docs/decisions/048-shop-by-size.md), loaded when the shopper opens it: the baby's
 * weight where the category's products have weight ranges, a size's name for the rest, and at
 * least an absorbency level where products carry one. A control whose filter is set always shows,
 * so nothing narrows the grid unseen. The weight is the size finder's too (decision 046): the grid
 * keeps the products made for it, and their cards have the size for it chosen.
 */
export default function ShopBySize({ id, filter, onChange }: ShopBySizeProps) {
  const facets = useSizeFacets(filter.category);
  const { byWeight = false, sizeNames = [], byAbsorbency = false } = facets.data ?? {};
  const weight = useWeightText(filter.weightGrams, (weightGrams) => onChange({ weightGrams }));
  const finder = useSizeFinder("weight", { category: filter.category });
  const chooseChild = useFinderFollowingWeight(filter.weightGrams, finder, weight.setText);
  const weightSet = weight.text.trim() !== "" || filter.weightGrams !== null;
  const weightValid = weight.text.trim() === "" || weightGramsOf(weight.text) !== null;
  const showWeight = byWeight || weightSet;
  const showSize = sizeNames.length > 0 || filter.size !== null;
  const showAbsorbency = byAbsorbency || filter.absorbency !== null;
  const anySet = filter.weightGrams !== null || filter.size !== null || filter.absorbency !== null;

  return (
    <div id={id} className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      {facets.isPending ? (
        <p className="text-sm text-stone-600">Loading sizes...</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-3 sm:items-start">
          {showWeight && (
            <div>
              <label htmlFor={`${id}-weight`} className="text-sm font-medium text-stone-700">
                Baby's weight (kg)
              </label>
              <input
                id={`${id}-weight`}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 7.5"
                value={weight.text}
                onChange={(event) => weight.setText(event.target.value)}
                aria-invalid={weightValid ? undefined : true}
                aria-describedby={`${id}-weight-hint`}
                className={INPUT}
              />
              <p id={`${id}-weight-hint`} className={`mt-1 text-xs ${weightValid ? "text-stone-600" : "text-red-800"}`}>
                {weightValid
                  ? "Shows products made for this weight, with the size for it chosen."
                  : `Enter a weight from ${WEIGHT_KG_MIN} to ${WEIGHT_KG_MAX} kg, for example 7.5.`}
              </p>
            </div>
          )}
          {showSize && (
            <div>
              <label htmlFor={`${id}-size`} className="text-sm font-medium text-stone-700">
                Size
              </label>
              <select
                id={`${id}-size`}
                value={filter.size ?? ""}
                onChange={(event) => onChange({ size: event.target.value || null })}
                className={FIELD}
              >
                <option value="">Any size</option>
                {[...new Set([...(filter.size === null ? [] : [filter.size]), ...sizeNames])].map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {showAbsorbency && (
            <div>
              <label htmlFor={`${id}-absorbency`} className="text-sm font-medium text-stone-700">
                Absorbency
              </label>
              <select
                id={`${id}-absorbency`}
                value={filter.absorbency ?? ""}
                onChange={(event) => onChange({ absorbency: event.target.value ? Number(event.target.value) : null })}
                className={FIELD}
              >
                <option value="">Any absorbency</option>
                {ABSORBENCY_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    At least {ABSORBENCY_LABELS[level]} ({level} of 6)
                  </option>
                ))}
              </select>
            </div>
          )}
          {showWeight && (
            <div className="grid gap-2 sm:col-span-3">
              <ChildChoices finder={finder} onChoose={chooseChild} />
              <FinderNotes finder={finder} narrowed />
            </div>
          )}
          {!showWeight && !showSize && !showAbsorbency && (
            <p className="text-sm text-stone-600 sm:col-span-3">These products come in one size for everyone.</p>
          )}
          {anySet && (
            <button
              type="button"
              onClick={() => {
                weight.setText("");
                finder.clear();
                onChange({ weightGrams: null, size: null, absorbency: null });
              }}
              className="min-h-11 justify-self-start text-sm font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-700 sm:col-span-3"
            >
              Clear size filters
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** How long the weight box waits for the shopper to pause before the grid follows. */
const WEIGHT_PAUSE_MS = 300;

/**
 * The weight box's text, and the filter following it: once the shopper pauses, a weight that reads
 * as one sets the filter's grams, and an empty or unreadable box clears it.
 */
function useWeightText(grams: number | null, setGrams: (grams: number | null) => void) {
  const [text, setText] = useState(grams === null ? "" : String(grams / 1000));
  useEffect(() => {
    const timer = setTimeout(() => {
      const typed = weightGramsOf(text);
      if (typed !== grams) setGrams(typed);
    }, WEIGHT_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, grams, setGrams]);
  return { text, setText };
}

/**
 * The finder follows the weight filter: each new weight (typed, or from the page's address) is
 * asked once. A child's button puts the child's weight in the box and asks for the child, so the
 * "Time to move up a size?" of that child is said, and the weight's own asking is skipped.
 */
function useFinderFollowingWeight(
  grams: number | null,
  finder: SizeFinderState,
  setText: (text: string) => void,
): (child: SizeFinderState["weighed"][number]) => void {
  const asked = useRef<number | null>(null);
  const { ask, clear } = finder;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new weight asks, not a new render (ask and clear are new each render)
  useEffect(() => {
    if (grams === asked.current) return;
    asked.current = grams;
    if (grams === null) clear();
    else void ask({ weightKg: grams / 1000 }, `${gramsAsKg(grams)} kg`);
  }, [grams]);
  return (child) => {
    asked.current = child.weightGrams;
    setText(gramsAsKg(child.weightGrams));
    void ask({ childId: child.id }, child.label, child.id);
  };
}
