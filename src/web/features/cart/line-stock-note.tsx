import type { LineStock } from "./line-stock";

/**
 * Under a cart line: "Only 2 left" when few are, with a nudge when the line holds more than that;
 * "Sold out" when none are. Nothing when plenty are left.
 */
export function LineStockNote({ stock, quantity }: { stock: LineStock; quantity: number }) {
  if (stock.left === null) return null;
  const text =
    stock.left === 0
      ? "Sold out: please remove it to check out"
      : quantity > stock.left
        ? `Only ${stock.left} left: please lower the quantity`
        : `Only ${stock.left} left`;
  return (
    <span className="mt-1 flex items-start gap-1.5 text-sm font-semibold text-amber-900">
      <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-amber-500" />
      {text}
    </span>
  );
}
