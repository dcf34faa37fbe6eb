/** The history entry of a product opened from the grid: its detail shows as a dialog over the grid. */
export const OVER_GRID_STATE = { overGrid: true } as const;

export function isOverGrid(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as { overGrid?: unknown }).overGrid === true;
}
