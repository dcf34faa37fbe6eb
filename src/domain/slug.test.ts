import { describe, expect, it } from "vitest";
import { slugify, uniqueSlug } from "./slug.js";

describe("slugify", () => {
  it.each([
    ["Pampers Baby-Dry Size 4 (44 Pack)", "pampers-baby-dry-size-4-44-pack"],
    ["Snug & Dry Pants", "snug-and-dry-pants"],
    ["Crème Wipes", "creme-wipes"],
    ["<script>alert(1)</script>", "script-alert-1-script"],
    ["  --  ", "product"],
  ])("turns %j into %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it("cuts a long name at a word boundary", () => {
    const slug = slugify("word ".repeat(40));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith("-")).toBe(false);
  });
});

describe("uniqueSlug", () => {
  it("numbers a slug that is taken", () => {
    expect(uniqueSlug("pads", new Set())).toBe("pads");
    expect(uniqueSlug("pads", new Set(["pads", "pads-2"]))).toBe("pads-3");
  });
});
