import type { FastifyBaseLogger } from "fastify";
import type { CourierApi, DirectoryPoint } from "./courier-api.js";

export type PointService = "locker" | "pickup_point";

/** The lists are fetched at most once a day; a failed fetch keeps serving the last good copy. */
export const DIRECTORY_MAX_AGE_MS = 24 * 3_600_000;
/** How many points a search answers. */
export const NEAREST_POINTS = 8;

/**
 * The locker and pickup-point directories (docs/decisions/051): cached a day with a last good
 * copy, searched by postal code or place name, and read again fresh when a shopper's chosen point
 * is checked at create-order.
 */
export function createDirectory(api: CourierApi, log: FastifyBaseLogger, now: () => number = Date.now) {
  const cache = new Map<PointService, { points: DirectoryPoint[]; fetchedAt: number }>();
  const fetchList = (service: PointService) => (service === "locker" ? api.lockers() : api.pickupPoints());

  async function fresh(service: PointService): Promise<DirectoryPoint[]> {
    const points = await fetchList(service);
    cache.set(service, { points, fetchedAt: now() });
    return points;
  }

  async function list(service: PointService): Promise<DirectoryPoint[]> {
    const cached = cache.get(service);
    if (cached && now() - cached.fetchedAt < DIRECTORY_MAX_AGE_MS) return cached.points;
    try {
      return await fresh(service);
    } catch (error) {
      if (!cached) throw error;
      log.warn({ err: error, service }, "delivery directory: fetch failed, the last good copy is used");
      return cached.points;
    }
  }

  return {
    list,
    fresh,
    /** The points nearest a postal code (by the code's number) or a place's name, open ones only. */
    async nearest(service: PointService, near: string, limit = NEAREST_POINTS): Promise<DirectoryPoint[]> {
      return nearestPoints(await list(service), near, limit);
    },
  };
}
export type Directory = ReturnType<typeof createDirectory>;

/**
 * South African postal codes run by region, so the nearest codes are near places (a heuristic
 * until points are ranked by the address's coordinates); a name matches suburb, town or point.
 */
export function nearestPoints(points: readonly DirectoryPoint[], near: string, limit: number): DirectoryPoint[] {
  const open = points.filter((point) => point.open);
  const text = near.trim().toLowerCase();
  if (/^\d{4}$/.test(text)) {
    const code = Number(text);
    return [...open]
      .filter((point) => /^\d{4}$/.test(point.postalCode) && point.postalCode[0] === text[0])
      .sort(
        (a, b) =>
          Math.abs(Number(a.postalCode) - code) - Math.abs(Number(b.postalCode) - code) || a.code.localeCompare(b.code),
      )
      .slice(0, limit);
  }
  return open
    .filter((point) => [point.suburb, point.city, point.name].some((field) => field.toLowerCase().includes(text)))
    .slice(0, limit);
}
