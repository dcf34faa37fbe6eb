import { describe, expect, it } from "vitest";
import type { Product } from "#domain/schemas/catalog.js";
import type { OrderItem } from "#domain/schemas/orders.js";
import { buyAgainToast, planBuyAgain } from "./buy-again";

const product = (overrides: Partial<Product>): Product => ({
  id: "8d0f4a52-1f3e-4b8e-9a77-0c2d5e6f7a81",
  name: "Snug & Dry Pull-Up Pants",
  slug: "snug-and-dry-pull-up-pants",
  maxPerOrder: 20,
  category: "kids",
  price: "189.99",
  image: "/images/products/kids-pull-up-pants.svg",
  description: "",
  sizes: ["Size 4", "Size 5"],
  sizeImages: {},
  sizeOutOfStock: {},
  outOfStock: false,
  sizeLowStock: {},
  promoText: null,
  ...overrides,
});

const pants = product({ sizeLowStock: { "Size 5": 2 } });
const swim = product({
  id: "2b7c9e10-5a4d-4f3b-8c21-9d8e7f6a5b4c",
  name: "Snug & Dry Swim Nappies",
  price: "99.00",
  sizes: ["Size 3", "Size 4"],
  sizeOutOfStock: { "Size 4": true },
});
const catalogue = [pants, swim];

const item = (overrides: Partial<OrderItem>): OrderItem => ({
  productId: pants.id,
  name: pants.name,
  size: "Size 4",
  quantity: 1,
  price: "150.00",
  ...overrides,
});

const added = (plan: ReturnType<typeof planBuyAgain>) =>
  plan.additions.map((addition) => [addition.product.name, addition.size, addition.quantity, addition.product.price]);

describe("planBuyAgain", () => {
  it("adds each line at today's price from the catalogue", () => {
    const plan = planBuyAgain([item({ quantity: 3 }), item({ productId: swim.id, size: "Size 3" })], catalogue, []);
    expect(added(plan)).toEqual([
      ["Snug & Dry Pull-Up Pants", "Size 4", 3, "189.99"],
      ["Snug & Dry Swim Nappies", "Size 3", 1, "99.00"],
    ]);
    expect(plan.short).toEqual([]);
    expect(plan.unavailable).toEqual([]);
  });

  it.each([
    { name: "a deleted product (no product id)", line: item({ productId: null, name: "Old Pads" }) },
    { name: "a product not in the catalogue", line: item({ productId: "gone", name: "Old Pads" }) },
    { name: "a size the product no longer has", line: item({ name: "Old Pads", size: "Size 9" }) },
    { name: "a sold-out size", line: item({ productId: swim.id, name: "Old Pads", size: "Size 4" }) },
    {
      name: "a product out of stock altogether",
      line: item({ name: "Old Pads" }),
      catalogue: [{ ...pants, outOfStock: true }],
    },
  ])("skips $name, naming it as the order did", ({ line, catalogue: shown = catalogue }) => {
    const plan = planBuyAgain([line], shown, []);
    expect(plan.additions).toEqual([]);
    expect(plan.unavailable).toEqual([{ name: "Old Pads", size: line.size }]);
  });

  it("caps a line at what is left of its size and says so", () => {
    const plan = planBuyAgain([item({ size: "Size 5", quantity: 4 })], catalogue, []);
    expect(added(plan)).toEqual([["Snug & Dry Pull-Up Pants", "Size 5", 2, "189.99"]]);
    expect(plan.short).toEqual([{ name: pants.name, size: "Size 5", left: 2, added: 2, limit: 20 }]);
  });

  it("counts what the cart already holds against what is left", () => {
    const holding = (quantity: number) => [{ id: pants.id, size: "Size 5", quantity }];
    expect(added(planBuyAgain([item({ size: "Size 5", quantity: 2 })], catalogue, holding(1)))).toEqual([
      ["Snug & Dry Pull-Up Pants", "Size 5", 1, "189.99"],
    ]);
    const full = planBuyAgain([item({ size: "Size 5", quantity: 2 })], catalogue, holding(2));
    expect(full.additions).toEqual([]);
    expect(full.short).toEqual([{ name: pants.name, size: "Size 5", left: 2, added: 0, limit: 20 }]);
  });

  it("stops at the product's limit per order when plenty are left", () => {
    const cart = [{ id: pants.id, size: "Size 4", quantity: pants.maxPerOrder - 1 }];
    const plan = planBuyAgain([item({ quantity: 5 })], catalogue, cart);
    expect(added(plan)).toEqual([["Snug & Dry Pull-Up Pants", "Size 4", 1, "189.99"]]);
    expect(plan.short).toEqual([{ name: pants.name, size: "Size 4", left: null, added: 1, limit: 20 }]);
  });
});

describe("buyAgainToast", () => {
  it("says how many were added and names what is not available any more", () => {
    const plan = planBuyAgain(
      [item({ quantity: 2 }), item({ productId: swim.id, name: swim.name, size: "Size 4" })],
      catalogue,
      [],
    );
    expect(buyAgainToast(plan)).toEqual({
      title: "Added 2 items to your cart",
      description: "Not available any more: Snug & Dry Swim Nappies (Size 4).",
      variant: "success",
    });
  });

  it("says what fell short of the order", () => {
    const plan = planBuyAgain([item({ size: "Size 5", quantity: 3 })], catalogue, []);
    expect(buyAgainToast(plan)).toEqual({
      title: "Added 2 items to your cart",
      description: "Only 2 left of Snug & Dry Pull-Up Pants (Size 5), so we added 2.",
      variant: "success",
    });
  });

  it("reads as a refusal when nothing could be added", () => {
    const plan = planBuyAgain([item({ productId: null, name: "Old Pads", size: "M" })], catalogue, []);
    expect(buyAgainToast(plan)).toEqual({
      title: "Nothing was added to your cart",
      description: "Not available any more: Old Pads (M).",
      variant: "error",
    });
  });

  it("adds one item in the singular", () => {
    expect(buyAgainToast(planBuyAgain([item({})], catalogue, [])).title).toBe("Added 1 item to your cart");
  });
});
