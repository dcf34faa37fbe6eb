import { categoryBadge } from "../../lib/format";

const TINTS: Record<string, string> = {
  baby: "badge-baby",
  kids: "badge-kids",
  adult: "badge-adult",
  pads: "badge-pads",
};

/** baby=Baby, kids=Kids, adult=Adult, pads=Period, otherwise Product (SPEC.md section 3). */
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

/** "pads" -> "Pads": how a category name reads on a chip. */
export function categoryLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
