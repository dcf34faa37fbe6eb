import type { DeliveryPoint } from "#domain/schemas/delivery.js";
import { pointsMapLayout } from "./points-map-layout";

/**
 * The nearest lockers or pickup points on a map of our own drawing (points-map-layout.ts): the
 * shopper's area in the middle, numbered markers matching the list, a scale bar. Each marker is a
 * button that chooses its point, as the list's button does; the list stays the primary way.
 */
export function PointsMap({
  points,
  kind,
  selectedCode,
  onChoose,
}: {
  points: readonly DeliveryPoint[];
  kind: "locker" | "pickup_point";
  selectedCode: string | null;
  onChoose: (point: DeliveryPoint) => void;
}) {
  const layout = pointsMapLayout(points);
  if (!layout) return null;
  const { width, height, centre, scale } = layout;
  const byCode = new Map(points.map((point) => [point.code, point]));
  // The chosen marker is drawn last, over any neighbour.
  const markers = [...layout.markers].sort((a, b) => Number(a.code === selectedCode) - Number(b.code === selectedCode));
  // Rings every scale-bar distance from the shopper's area.
  const ring = scale.length;

  return (
    <figure className="m-0">
      <fieldset
        aria-label={kind === "locker" ? "Map of nearby lockers" : "Map of nearby pickup points"}
        className="relative m-0 aspect-[4/3] w-full min-w-0 overflow-hidden rounded-xl border border-stone-200 bg-[#f3f6f1]"
      >
        <svg viewBox={`0 0 ${width} ${height}`} className="absolute inset-0 size-full" aria-hidden="true">
          <defs>
            <pattern id="points-map-grid" width="40" height="40" patternUnits="userSpaceOnUse">
              <path d="M40 0H0V40" fill="none" className="stroke-stone-200" strokeWidth="1" />
            </pattern>
          </defs>
          <rect width={width} height={height} fill="url(#points-map-grid)" />
          {[1, 2, 3, 4].map((step) => (
            <circle
              key={step}
              cx={centre.x}
              cy={centre.y}
              r={ring * step}
              fill="none"
              className="stroke-brand-200"
              strokeWidth="1.5"
              strokeDasharray="4 5"
            />
          ))}
          {/* The shopper's area: a house in a soft halo. */}
          <circle cx={centre.x} cy={centre.y} r="17" className="fill-brand-100" />
          <path
            d={`M${centre.x - 8} ${centre.y + 7}v-8l8-7 8 7v8h-5v-5h-6v5z`}
            className="fill-stone-800"
            strokeLinejoin="round"
          />
          <text
            x={centre.x}
            y={centre.y + 32}
            textAnchor="middle"
            className="fill-stone-800 stroke-white text-[14px] font-semibold [paint-order:stroke]"
            strokeWidth="3"
          >
            You
          </text>
          {/* Scale bar, bottom left. */}
          <g transform={`translate(14 ${height - 16})`}>
            <rect x="-6" y="-22" width={scale.length + 12} height="30" rx="6" className="fill-white/85" />
            <path
              d={`M0 -6v6h${scale.length}v-6`}
              fill="none"
              className="stroke-stone-700"
              strokeWidth="2"
              strokeLinecap="round"
            />
            <text x={scale.length / 2} y="-7" textAnchor="middle" className="fill-stone-800 text-[13px] font-medium">
              {scale.label}
            </text>
          </g>
          {/* North, top right. */}
          <g transform={`translate(${width - 20} 24)`}>
            <path d="M0 -12l6 14-6-4-6 4z" className="fill-stone-600" />
            <text y="16" textAnchor="middle" className="fill-stone-600 text-[12px] font-semibold">
              N
            </text>
          </g>
        </svg>

        {markers.map((marker) => {
          const point = byCode.get(marker.code);
          if (!point) return null;
          const chosen = marker.code === selectedCode;
          return (
            <button
              key={marker.code}
              type="button"
              aria-pressed={chosen}
              aria-label={`${marker.number}: ${point.name}`}
              title={point.name}
              onClick={() => onChoose(point)}
              style={{ left: `${(marker.x / width) * 100}%`, top: `${(marker.y / height) * 100}%` }}
              className="group absolute grid size-11 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <span
                className={`grid size-8 place-items-center rounded-full border-2 text-sm font-bold tabular-nums shadow-sm transition-transform duration-150 group-hover:scale-110 motion-reduce:transition-none ${
                  chosen
                    ? "scale-110 border-white bg-brand-700 text-white ring-2 ring-brand-700"
                    : "border-brand-700 bg-white text-brand-800"
                }`}
              >
                {marker.number}
              </span>
            </button>
          );
        })}
      </fieldset>
      <figcaption className="mt-2 text-xs text-stone-600">
        The numbers match the list. "You" is your area, placed from your postal code, so distances are a guide.
        {layout.unplaced > 0 &&
          ` ${layout.unplaced} ${layout.unplaced === 1 ? "point has" : "points have"} no position and ${layout.unplaced === 1 ? "is" : "are"} in the list only.`}
      </figcaption>
    </figure>
  );
}
