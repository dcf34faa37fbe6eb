import type { AdminProduct } from "#domain/schemas/catalog.js";
import { leftText, productStock, type StockLevel } from "./stock-model";

/** Sold out and low sizes stand out by their words ("Sold out", "Only 3") first, their tint second. */
export const LEVEL_CLASSES: Record<StockLevel, string> = {
  "sold-out": "bg-red-50 text-red-900 ring-red-300",
  low: "bg-amber-50 text-amber-950 ring-amber-400",
  "in-stock": "bg-stone-50 text-stone-800 ring-stone-200",
};

/** A product's units left to sell per size, compact enough for a list row. */
export function SizeStockList({ product }: { product: AdminProduct }) {
  return (
    <ul aria-label={`Stock of ${product.name} by size`} className="flex flex-wrap gap-1.5">
      {productStock(product).map((size) => (
        <li
          key={size.size}
          className={`inline-flex items-baseline gap-1 rounded-md px-2 py-0.5 text-xs ring-1 ring-inset ${LEVEL_CLASSES[size.level]}`}
        >
          <span>{size.size}:</span>{" "}
          <span className={`tabular ${size.level === "in-stock" ? "font-medium" : "font-bold"}`}>{leftText(size)}</span>
          {size.level !== "sold-out" && <span className="sr-only"> left to sell</span>}
          {size.held > 0 && <span className="text-stone-700"> ({size.held} held)</span>}
        </li>
      ))}
    </ul>
  );
}
