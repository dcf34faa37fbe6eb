/**
 * "Only 2 left" for a size with few units left to sell (the product's sizeLowStock); nothing when
 * more are left. The words carry the news; the amber only underlines them.
 */
export function LowStockNote({
  left,
  id,
  className = "",
}: {
  left: number | undefined;
  id?: string;
  className?: string;
}) {
  if (!left) return null;
  return (
    <p id={id} className={`inline-flex items-center gap-1.5 text-sm font-semibold text-amber-900 ${className}`}>
      <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-amber-500" />
      {`Only ${left} left`}
    </p>
  );
}
