/** The mark: a drop with a leaf's vein, drawn for the shop (no stock logo). */
export function LogoMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <path d="M16 2.5S6 13.8 6 20.2a10 10 0 0 0 20 0C26 13.8 16 2.5 16 2.5Z" fill="currentColor" />
      <path
        d="M16 27.5V15.5M16 21.5l-4-3.2M16 18.5l3.6-2.8"
        fill="none"
        stroke="#fff"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeOpacity=".9"
      />
    </svg>
  );
}

/** Mark and wordmark; the shop's name comes from its config. */
export function Logo({ name, tone = "dark" }: { name: string; tone?: "dark" | "light" }) {
  return (
    <span className="inline-flex items-center gap-2">
      <LogoMark className={`size-8 ${tone === "dark" ? "text-brand-700" : "text-brand-300"}`} />
      <span
        className={`text-lg font-bold tracking-tight whitespace-nowrap ${tone === "dark" ? "text-stone-950" : "text-white"}`}
      >
        {name}
      </span>
    </span>
  );
}
