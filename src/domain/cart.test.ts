import { describe, expect, it } from "vitest";
import {
  addLine,
  addToCartProblem,
  type CartLine,
  cartCount,
  cartKey,
  cartSubtotalCents,
  isCart,
  isCartLine,
  lineQuantity,
  removeLine,
  setLineQuantity,
} from "./cart";
import { MAX_LINE_QUANTITY } from "./limits.js";
import type { Product } from "./schemas/catalog";
import { orderLineInput } from "./schemas/orders";

const product = (overrides: Partial<Product> = {}): Product => ({
  id: "8d0f4a52-1f3e-4b8e-9a77-0c2d5e6f7a81",
  name: "Newborn Nappies",
  slug: "newborn-nappies",
  maxPerOrder: 20,
  category: "baby",
  price: "249.99",
  image: "/images/newborn.webp",
  description: "Soft and dry.",
  sizes: ["Newborn", "Size 1"],
  sizeImages: {},
  sizeOutOfStock: {},
  outOfStock: false,
  sizeLowStock: {},
  promoText: null,
  ...overrides,
});

const nappies = product();
const pads = product({
  id: "2b7c9e10-5a4d-4f3b-8c21-9d8e7f6a5b4c",
  name: "Day Pads",
  category: "pads",
  price: "45.00",
});
const line = (p: Product, size: string, quantity: number): CartLine => ({ ...p, size, quantity });

describe("cartKey", () => {
  it.each([
    ["user-1", "cart_user-1"],
    [null, "cart_guest"],
    [undefined, "cart_guest"],
    ["", "cart_guest"],
  ])("keeps the cart of %j under %j", (userId, key) => {
    expect(cartKey(userId)).toBe(key);
  });
});

describe("addLine", () => {
  it.each([
    {
      name: "adds a new line for a product and size not in the cart",
      cart: [],
      add: { p: nappies, size: "Newborn", quantity: 2 },
      expected: [["Newborn Nappies", "Newborn", 2]],
    },
    {
      name: "merges the quantity into the line of the same product and size",
      cart: [line(nappies, "Newborn", 2)],
      add: { p: nappies, size: "Newborn", quantity: 3 },
      expected: [["Newborn Nappies", "Newborn", 5]],
    },
    {
      name: "keeps another size of the same product on a line of its own",
      cart: [line(nappies, "Newborn", 2)],
      add: { p: nappies, size: "Size 1", quantity: 1 },
      expected: [
        ["Newborn Nappies", "Newborn", 2],
        ["Newborn Nappies", "Size 1", 1],
      ],
    },
    {
      name: "keeps another product of the same size on a line of its own",
      cart: [line(nappies, "Newborn", 2)],
      add: { p: pads, size: "Newborn", quantity: 1 },
      expected: [
        ["Newborn Nappies", "Newborn", 2],
        ["Day Pads", "Newborn", 1],
      ],
    },
    {
      name: "caps a single line at the maximum quantity",
      cart: [],
      add: { p: nappies, size: "Newborn", quantity: MAX_LINE_QUANTITY + 500 },
      expected: [["Newborn Nappies", "Newborn", MAX_LINE_QUANTITY]],
    },
    {
      name: "caps a merged line at the maximum quantity, like a single line",
      cart: [line(nappies, "Newborn", MAX_LINE_QUANTITY - 1)],
      add: { p: nappies, size: "Newborn", quantity: 5 },
      expected: [["Newborn Nappies", "Newborn", MAX_LINE_QUANTITY]],
    },
    {
      name: "keeps a line at the maximum when the same product and size is added again",
      cart: [line(nappies, "Newborn", MAX_LINE_QUANTITY)],
      add: { p: nappies, size: "Newborn", quantity: 1 },
      expected: [["Newborn Nappies", "Newborn", MAX_LINE_QUANTITY]],
    },
    {
      name: "changes nothing when adding zero",
      cart: [line(nappies, "Newborn", 2)],
      add: { p: nappies, size: "Size 1", quantity: 0 },
      expected: [["Newborn Nappies", "Newborn", 2]],
    },
    {
      name: "changes nothing when adding a negative quantity",
      cart: [line(nappies, "Newborn", 2)],
      add: { p: nappies, size: "Newborn", quantity: -5 },
      expected: [["Newborn Nappies", "Newborn", 2]],
    },
  ])("$name", ({ cart, add, expected }) => {
    const result = addLine(cart, add.p, add.size, add.quantity);
    expect(result.map((l) => [l.name, l.size, l.quantity])).toEqual(expected);
  });

  it("leaves the cart it was given unchanged", () => {
    const cart = [line(nappies, "Newborn", 2)];
    addLine(cart, nappies, "Newborn", 3);
    expect(cart[0]?.quantity).toBe(2);
  });

  it.each([
    { name: "caps a new line at what is left", cart: [], quantity: 5, max: 2, expected: [["Newborn", 2]] },
    {
      name: "caps a merged line at what is left",
      cart: [line(nappies, "Newborn", 1)],
      quantity: 5,
      max: 3,
      expected: [["Newborn", 3]],
    },
    {
      name: "brings a line above what is left down to it when more is added",
      cart: [line(nappies, "Newborn", 4)],
      quantity: 1,
      max: 2,
      expected: [["Newborn", 2]],
    },
    {
      name: "adds nothing of a size with nothing left",
      cart: [line(nappies, "Size 1", 1)],
      quantity: 1,
      max: 0,
      expected: [["Size 1", 1]],
    },
    {
      name: "still stops at the cart line's limit when more than that is left",
      cart: [],
      quantity: MAX_LINE_QUANTITY + 1,
      max: MAX_LINE_QUANTITY + 10,
      expected: [["Newborn", MAX_LINE_QUANTITY]],
    },
  ])("$name", ({ cart, quantity, max, expected }) => {
    const result = addLine(cart, nappies, "Newborn", quantity, max);
    expect(result.map((l) => [l.size, l.quantity])).toEqual(expected);
  });

  it("never makes a line that create-order would refuse, however often the same line is added", () => {
    let cart: CartLine[] = [];
    for (let i = 0; i < 5; i++) cart = addLine(cart, nappies, "Newborn", 400);
    expect(cart).toHaveLength(1);
    const [merged] = cart;
    expect(orderLineInput.safeParse({ id: merged?.id, size: merged?.size, quantity: merged?.quantity }).success).toBe(
      true,
    );
  });
});

describe("MAX_LINE_QUANTITY", () => {
  it("is the most create-order takes on one line", () => {
    const order = (quantity: number) => orderLineInput.safeParse({ id: nappies.id, size: "Newborn", quantity }).success;
    expect(order(MAX_LINE_QUANTITY)).toBe(true);
    expect(order(MAX_LINE_QUANTITY + 1)).toBe(false);
  });
});

describe("setLineQuantity", () => {
  const cart = [line(nappies, "Newborn", 2), line(pads, "Regular", 1)];

  it.each([
    [
      5,
      [
        ["Newborn", 5],
        ["Regular", 1],
      ],
    ],
    [
      1,
      [
        ["Newborn", 1],
        ["Regular", 1],
      ],
    ],
    [0, [["Regular", 1]]],
    [-1, [["Regular", 1]]],
    [
      MAX_LINE_QUANTITY + 1,
      [
        ["Newborn", MAX_LINE_QUANTITY],
        ["Regular", 1],
      ],
    ],
  ])("sets the Newborn line to %i and leaves %j", (quantity, expected) => {
    const result = setLineQuantity(cart, nappies.id, "Newborn", quantity);
    expect(result.map((l) => [l.size, l.quantity])).toEqual(expected);
  });

  it("changes nothing for a line that is not in the cart", () => {
    expect(setLineQuantity(cart, nappies.id, "Size 1", 4)).toEqual(cart);
  });

  it.each([
    { name: "stops at what is left", quantity: 3, max: 2, expected: 2 },
    { name: "takes a quantity within what is left", quantity: 2, max: 5, expected: 2 },
    { name: "brings a line above what is left down to it as the shopper lowers it", quantity: 4, max: 1, expected: 1 },
    { name: "keeps a line of a sold-out size at 1 for the shopper to remove", quantity: 1, max: 0, expected: 1 },
  ])("$name", ({ quantity, max, expected }) => {
    const result = setLineQuantity(cart, nappies.id, "Newborn", quantity, max);
    expect(lineQuantity(result, nappies.id, "Newborn")).toBe(expected);
  });

  it("still removes a line set to 0, whatever is left", () => {
    expect(lineQuantity(setLineQuantity(cart, nappies.id, "Newborn", 0, 5), nappies.id, "Newborn")).toBe(0);
  });
});

describe("lineQuantity", () => {
  it("reads the quantity of one product and size, 0 when the cart has none", () => {
    const cart = [line(nappies, "Newborn", 2), line(pads, "Newborn", 7)];
    expect(lineQuantity(cart, nappies.id, "Newborn")).toBe(2);
    expect(lineQuantity(cart, nappies.id, "Size 1")).toBe(0);
  });
});

describe("removeLine", () => {
  it("removes only the line of that product and size", () => {
    const cart = [line(nappies, "Newborn", 2), line(nappies, "Size 1", 1), line(pads, "Newborn", 1)];
    expect(removeLine(cart, nappies.id, "Newborn").map((l) => [l.name, l.size])).toEqual([
      ["Newborn Nappies", "Size 1"],
      ["Day Pads", "Newborn"],
    ]);
  });
});

describe("cartCount and cartSubtotalCents", () => {
  it.each([
    { name: "count nothing in an empty cart", cart: [], count: 0, subtotal: 0 },
    { name: "count one line's quantity", cart: [line(nappies, "Newborn", 2)], count: 2, subtotal: 49_998 },
    {
      name: "sum every line",
      cart: [line(nappies, "Newborn", 2), line(pads, "Regular", 3)],
      count: 5,
      subtotal: 49_998 + 13_500,
    },
    {
      name: "count a line with an unreadable price as free rather than failing",
      cart: [line(product({ price: "junk" }), "Newborn", 2)],
      count: 2,
      subtotal: 0,
    },
  ])("$name", ({ cart, count, subtotal }) => {
    expect(cartCount(cart)).toBe(count);
    expect(cartSubtotalCents(cart)).toBe(subtotal);
  });
});

describe("addToCartProblem", () => {
  it.each([
    { name: "allows an available size", p: nappies, size: "Newborn", problem: null },
    {
      name: "refuses an out-of-stock product first",
      p: product({ outOfStock: true }),
      size: undefined,
      problem: "This product is currently out of stock",
    },
    {
      name: "asks for a size when none is chosen",
      p: nappies,
      size: "",
      problem: "Please select a size before adding to cart",
    },
    {
      name: "asks for a size when the size is null",
      p: nappies,
      size: null,
      problem: "Please select a size before adding to cart",
    },
    {
      name: "refuses an out-of-stock size",
      p: product({ sizeOutOfStock: { "Size 1": true } }),
      size: "Size 1",
      problem: "Size 1 size is currently out of stock",
    },
    {
      name: "allows a size whose out-of-stock flag is false",
      p: product({ sizeOutOfStock: { "Size 1": false } }),
      size: "Size 1",
      problem: null,
    },
  ])("$name", ({ p, size, problem }) => {
    expect(addToCartProblem(p, size)).toBe(problem);
  });
});

describe("isCartLine and isCart", () => {
  const good = line(nappies, "Newborn", 2);

  it.each([
    { name: "accepts a stored line", value: good, ok: true },
    { name: "refuses a zero quantity", value: { ...good, quantity: 0 }, ok: false },
    { name: "refuses a fractional quantity", value: { ...good, quantity: 1.5 }, ok: false },
    { name: "refuses a quantity stored as text", value: { ...good, quantity: "2" }, ok: false },
    { name: "refuses an unreadable price", value: { ...good, price: "R249.99" }, ok: false },
    { name: "refuses a missing size", value: { ...good, size: undefined }, ok: false },
    { name: "refuses null", value: null, ok: false },
    { name: "refuses text", value: "cart", ok: false },
  ])("$name", ({ value, ok }) => {
    expect(isCartLine(value)).toBe(ok);
  });

  it.each([
    { name: "accepts an empty cart", value: [], ok: true },
    { name: "accepts a list of good lines", value: [good, line(pads, "Regular", 1)], ok: true },
    { name: "refuses a list with one bad line", value: [good, { ...good, quantity: -1 }], ok: false },
    { name: "refuses an object that is not a list", value: { 0: good }, ok: false },
  ])("$name", ({ value, ok }) => {
    expect(isCart(value)).toBe(ok);
  });
});
