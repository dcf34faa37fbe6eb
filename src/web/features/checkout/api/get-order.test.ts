import { describe, expect, it } from "vitest";
import { pollDelay } from "./get-order";

describe("pollDelay", () => {
  it.each([
    [0, 2_000],
    [59_999, 2_000],
    [60_000, 15_000],
    [5 * 60_000, 15_000],
    [20 * 60_000 - 1, 15_000],
    [20 * 60_000, false],
    [60 * 60_000, false],
  ])("%i ms into the wait: asks again after %s ms (false: stops)", (elapsedMs, delay) => {
    expect(pollDelay(elapsedMs)).toBe(delay);
  });
});
