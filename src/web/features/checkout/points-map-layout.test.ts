import { describe, expect, it } from "vitest";
import { MAP_HEIGHT, MAP_WIDTH, MARKER_GAP, pointsMapLayout } from "./points-map-layout";

const at = (code: string, latitude: number | null, longitude: number | null) => ({ code, latitude, longitude });

describe("pointsMapLayout", () => {
  it("numbers the markers as the list does, and counts the points with no position", () => {
    const layout = pointsMapLayout([at("A", -26.1, 28.05), at("B", null, null), at("C", -26.12, 28.07)]);
    expect(layout?.markers.map((marker) => [marker.code, marker.number])).toEqual([
      ["A", 1],
      ["C", 3],
    ]);
    expect(layout?.unplaced).toBe(1);
    expect(pointsMapLayout([at("B", null, null)])).toBeNull();
  });

  it("puts north up and east right of the shopper's area, the middle of the nearest three", () => {
    const layout = pointsMapLayout([
      at("middle", -26.1, 28.05),
      at("north", -26.05, 28.05),
      at("south", -26.15, 28.05),
      at("east", -26.1, 28.12),
    ]);
    const marker = (code: string) => layout?.markers.find((candidate) => candidate.code === code);
    expect(layout?.centre).toEqual({ x: MAP_WIDTH / 2, y: MAP_HEIGHT / 2 });
    expect(marker("north")?.y).toBeLessThan(MAP_HEIGHT / 2);
    expect(marker("south")?.y).toBeGreaterThan(MAP_HEIGHT / 2);
    expect(marker("east")?.x).toBeGreaterThan(MAP_WIDTH * 0.75);
  });

  it("keeps markers apart and inside the map, even for points at one spot", () => {
    const layout = pointsMapLayout([
      at("A", -33.92, 18.42),
      at("B", -33.92, 18.42),
      at("C", -33.9201, 18.4201),
      at("D", -33.93, 18.43),
      at("E", -33.95, 18.46),
      at("F", -33.9, 18.4),
    ]);
    const markers = layout?.markers ?? [];
    expect(markers).toHaveLength(6);
    for (const [i, a] of markers.entries()) {
      expect(a.x).toBeGreaterThan(0);
      expect(a.x).toBeLessThan(MAP_WIDTH);
      expect(a.y).toBeGreaterThan(0);
      expect(a.y).toBeLessThan(MAP_HEIGHT);
      for (const b of markers.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(MARKER_GAP - 1);
    }
  });

  it("draws a scale bar of a round distance, a quarter of the map wide at most", () => {
    const near = pointsMapLayout([at("A", -26.1, 28.05), at("B", -26.13, 28.08)]);
    expect(near?.scale.label).toMatch(/^(\d+ m|\d+ km)$/);
    expect(near?.scale.length).toBeLessThanOrEqual(MAP_WIDTH / 4);
    expect(near?.scale.length).toBeGreaterThan(MAP_WIDTH / 12);
    // Upington's points and Kimberley's, 360 km apart: hundreds of kilometres.
    const far = pointsMapLayout([at("A", -28.45, 21.25), at("B", -28.73, 24.75)]);
    expect(far?.scale.label).toMatch(/^(50|100|200) km$/);
  });
});
