import { describe, expect, it } from "vitest";
import { percentText } from "./percent.js";

describe("percentText", () => {
  it.each([
    [500, "5%"],
    [750, "7.5%"],
    [1234, "12.34%"],
    [250, "2.5%"],
    [25, "0.25%"],
    [0, "0%"],
  ])("says %i basis points as %s", (bp, text) => {
    expect(percentText(bp)).toBe(text);
  });
});
