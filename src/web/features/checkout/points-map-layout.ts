/**
 * Where the checkout's map (points-map.tsx) draws the nearest lockers or pickup points: our own
 * drawing, no map tiles (no tile server is reachable, and a third party's would need CSP and
 * privacy changes). The shopper's area is the centre, each point is placed by its latitude and
 * longitude on a flat projection around it (fine over the few kilometres of a search), scaled so
 * the farthest fits, and nudged apart where markers would cover each other.
 *
 * The shop has no geocoding service (decision 051), so the shopper's area is an estimate: the
 * middle of the nearest few points, which are ranked by postal code. The map says so.
 */

export interface MapPointInput {
  code: string;
  latitude: number | null;
  longitude: number | null;
}

export interface PlacedMarker {
  code: string;
  /** Its place in the list (1 = first), shown on the marker. */
  number: number;
  /** In the map's units (0..width, 0..height), north up. */
  x: number;
  y: number;
}

export interface PointsMapLayout {
  width: number;
  height: number;
  centre: { x: number; y: number };
  markers: PlacedMarker[];
  /** The scale bar: a round distance and its length in the map's units. */
  scale: { label: string; length: number };
  /** How many points of the list had no position to draw. */
  unplaced: number;
}

export const MAP_WIDTH = 400;
export const MAP_HEIGHT = 300;
/** The least distance between two markers' centres, in map units (a marker is 36 across). */
export const MARKER_GAP = 40;
/** How many of the nearest points decide the centre. */
const CENTRE_FROM = 3;
const KM_PER_DEGREE_LATITUDE = 110.57;
const KM_PER_DEGREE_LONGITUDE_AT_EQUATOR = 111.32;
/** The map never shows less than this many kilometres from the centre to its edge. */
const LEAST_REACH_KM = 1;
const ROUND_DISTANCES_KM = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export function distanceLabel(km: number): string {
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km} km`;
}

/** The markers, the centre and the scale bar for `points` (in list order). */
export function pointsMapLayout(points: readonly MapPointInput[]): PointsMapLayout | null {
  const located = points.flatMap((point, index) =>
    point.latitude !== null && point.longitude !== null
      ? [{ code: point.code, number: index + 1, latitude: point.latitude, longitude: point.longitude }]
      : [],
  );
  if (located.length === 0) return null;
  const nearest = located.slice(0, CENTRE_FROM);
  const latitude0 = nearest.reduce((sum, point) => sum + point.latitude, 0) / nearest.length;
  const longitude0 = nearest.reduce((sum, point) => sum + point.longitude, 0) / nearest.length;
  const kmPerDegreeLongitude = KM_PER_DEGREE_LONGITUDE_AT_EQUATOR * Math.cos((latitude0 * Math.PI) / 180);
  const offsets = located.map((point) => ({
    ...point,
    east: (point.longitude - longitude0) * kmPerDegreeLongitude,
    north: (point.latitude - latitude0) * KM_PER_DEGREE_LATITUDE,
  }));

  const halfWidth = MAP_WIDTH / 2 - MARKER_GAP / 2 - 4;
  const halfHeight = MAP_HEIGHT / 2 - MARKER_GAP / 2 - 4;
  const reachEast = Math.max(LEAST_REACH_KM, ...offsets.map((point) => Math.abs(point.east)));
  const reachNorth = Math.max(LEAST_REACH_KM, ...offsets.map((point) => Math.abs(point.north)));
  const unitsPerKm = Math.min(halfWidth / reachEast, halfHeight / reachNorth);
  const centre = { x: MAP_WIDTH / 2, y: MAP_HEIGHT / 2 };
  const markers = spreadApart(
    offsets.map((point) => ({
      code: point.code,
      number: point.number,
      x: centre.x + point.east * unitsPerKm,
      y: centre.y - point.north * unitsPerKm,
    })),
    centre,
  );

  // A round distance about a quarter of the map wide.
  const wantedKm = MAP_WIDTH / 4 / unitsPerKm;
  const scaleKm = [...ROUND_DISTANCES_KM].reverse().find((km) => km <= wantedKm) ?? ROUND_DISTANCES_KM[0] ?? 0.1;
  return {
    width: MAP_WIDTH,
    height: MAP_HEIGHT,
    centre,
    markers,
    scale: { label: distanceLabel(scaleKm), length: scaleKm * unitsPerKm },
    unplaced: points.length - located.length,
  };
}

/**
 * Moves markers that would cover each other (or the centre) apart, a little at a time, and keeps
 * them inside the map. Points a few metres apart stay side by side rather than one hiding another.
 */
function spreadApart(markers: PlacedMarker[], centre: { x: number; y: number }): PlacedMarker[] {
  const placed = markers.map((marker) => ({ ...marker }));
  const minX = MARKER_GAP / 2 + 2;
  const minY = MARKER_GAP / 2 + 2;
  const clamp = (marker: PlacedMarker) => {
    marker.x = Math.min(MAP_WIDTH - minX, Math.max(minX, marker.x));
    marker.y = Math.min(MAP_HEIGHT - minY, Math.max(minY, marker.y));
  };
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (const [i, a] of placed.entries()) {
      // The centre's own mark stays clear (it is smaller than a marker).
      const fromCentre = Math.hypot(a.x - centre.x, a.y - centre.y);
      const clearOfCentre = MARKER_GAP * 0.75;
      if (fromCentre < clearOfCentre) {
        const angle = fromCentre > 0.01 ? Math.atan2(a.y - centre.y, a.x - centre.x) : (a.number * 2.4) % (2 * Math.PI);
        a.x = centre.x + Math.cos(angle) * clearOfCentre;
        a.y = centre.y + Math.sin(angle) * clearOfCentre;
        moved = true;
      }
      for (const b of placed.slice(i + 1)) {
        const apart = Math.hypot(b.x - a.x, b.y - a.y);
        if (apart >= MARKER_GAP) continue;
        // Points at the same spot move apart at an angle of their own, the same on every render.
        const angle = apart > 0.01 ? Math.atan2(b.y - a.y, b.x - a.x) : (b.number * 2.4) % (2 * Math.PI);
        const push = (MARKER_GAP - apart) / 2 + 0.5;
        a.x -= Math.cos(angle) * push;
        a.y -= Math.sin(angle) * push;
        b.x += Math.cos(angle) * push;
        b.y += Math.sin(angle) * push;
        moved = true;
      }
    }
    for (const marker of placed) clamp(marker);
    if (!moved) break;
  }
  return placed;
}
