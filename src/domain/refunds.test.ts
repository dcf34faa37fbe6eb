import { describe, expect, it } from "vitest";
import { refundableCents } from "./refunds";

describe("refundableCents", () => {
  it.each([
    [57_499, 0, 57_499],
    [57_499, 7_500, 49_999],
    [57_499, 57_499, 0],
    [57_499, 60_000, 0],
  ])("of %i cents paid with %i refunded leaves %i", (paid, refunded, left) => {
    expect(refundableCents(paid, refunded)).toBe(left);
  });
});
