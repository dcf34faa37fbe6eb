import { ABSORBENCY_LABELS, ABSORBENCY_LEVELS, type Absorbency } from "#domain/absorbency.js";

/** A product's absorbency on its page: six drops, as many filled as its level, and the level in words. */
export function AbsorbencyNote({ level }: { level: number }) {
  const label = ABSORBENCY_LABELS[level as Absorbency];
  if (!label) return null;
  return (
    <p className="-mt-2 flex items-center gap-2 text-sm text-stone-700">
      <span className="font-semibold text-stone-900">Absorbency:</span>
      <span aria-hidden="true" className="flex gap-0.5">
        {ABSORBENCY_LEVELS.map((drop) => (
          <svg key={drop} viewBox="0 0 12 16" className="h-4 w-3" aria-hidden="true">
            <path
              d="M6 1C4 5 1.5 7.5 1.5 10.5a4.5 4.5 0 0 0 9 0C10.5 7.5 8 5 6 1Z"
              className={drop <= level ? "fill-brand-700 stroke-brand-700" : "fill-none stroke-stone-400"}
              strokeWidth="1.2"
            />
          </svg>
        ))}
      </span>
      <span>
        {label} ({level} of 6)
      </span>
    </p>
  );
}
