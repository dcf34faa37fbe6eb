import { describe, expect, it } from "vitest";
import { ABSORBENCY_LEVELS } from "#domain/absorbency.js";
import { seedAbsorbency, seedProducts } from "./seed-data.js";

describe("the starter catalogue's absorbency", () => {
  it("is set for every adult and period product, and for no other", () => {
    for (const [name, level] of Object.entries(seedAbsorbency)) {
      const product = seedProducts.find((candidate) => candidate.name === name);
      expect(product?.category, name).toMatch(/^(adult|pads)$/);
      expect(ABSORBENCY_LEVELS).toContain(level);
    }
    const withoutLevel = seedProducts.filter(
      (product) => ["adult", "pads"].includes(product.category) && seedAbsorbency[product.name] === undefined,
    );
    expect(withoutLevel.map((product) => product.name)).toEqual([]);
  });
});
