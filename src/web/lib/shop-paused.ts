import { ApiError } from "./api.js";

/**
 * True when the shop cannot take orders or sign-ins for a moment (503 SERVICE_UNAVAILABLE: its
 * database is away, or it is restarting): the page says checkout is paused, not that something failed.
 */
export function isShopPaused(error: unknown): boolean {
  return error instanceof ApiError && error.code === "SERVICE_UNAVAILABLE";
}
