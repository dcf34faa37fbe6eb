import { categoryBadge } from "#web/lib/format.js";

const TINTS: Record<string, string> = {
  baby: "badge-baby",
  kids: "badge-kids",
  adult: "badge-adult",
  pads: "badge-pads",
};

/** baby=Baby, kids=Kids, adult=Adult, pads=Period, otherwise Product (docs/product.md §3). */
export function CategoryBadge({ category }: { category: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide ${
        TINTS[category] ?? "badge-other"
      }`}
    >
      {categoryBadge(category)}
    </span>
  );
}
