import { describe, expect, it } from "vitest";
import { TCG_LOCKER_COMPARTMENTS } from "./delivery.js";
import { compartmentFor, DEFAULT_BOX_SIZES, fitsInside, type PackItem, packOrder } from "./parcels.js";

const nappies = (quantity: number): PackItem => ({
  weightGrams: 2_000,
  lengthMm: 400,
  widthMm: 250,
  heightMm: 150,
  quantity,
});
const pads = (quantity: number): PackItem => ({
  weightGrams: 400,
  lengthMm: 220,
  widthMm: 120,
  heightMm: 90,
  quantity,
});

describe("packOrder", () => {
  it.each([
    ["one pack of pads", [pads(1)], ["S"]],
    ["one pack of nappies", [nappies(1)], ["S"]],
    ["three packs of nappies", [nappies(3)], ["M"]],
    ["ten packs of nappies", [nappies(10)], ["L"]],
    ["thirteen packs of nappies: a large box full, the rest in a medium", [nappies(13)], ["L", "M"]],
    ["nappies and pads together", [nappies(2), pads(4)], ["M"]],
  ])("%s", (_name, items, codes) => {
    const packing = packOrder(items, DEFAULT_BOX_SIZES);
    expect(packing.ok).toBe(true);
    if (packing.ok) expect(packing.boxes.map((box) => box.box.code)).toEqual(codes);
  });

  it("puts every pack in a box, and no box over its weight", () => {
    const packing = packOrder([nappies(40), pads(7)], DEFAULT_BOX_SIZES);
    if (!packing.ok) throw new Error("packs");
    expect(packing.boxes.reduce((sum, box) => sum + box.packs, 0)).toBe(47);
    for (const box of packing.boxes) expect(box.weightGrams).toBeLessThanOrEqual(box.box.maxWeightGrams);
  });

  it("refuses a pack no box takes, and packs nothing into no boxes", () => {
    expect(packOrder([{ ...nappies(1), lengthMm: 900 }], DEFAULT_BOX_SIZES)).toEqual({ ok: false, reason: "TOO_BIG" });
    expect(packOrder([], DEFAULT_BOX_SIZES)).toEqual({ ok: true, boxes: [] });
  });

  it("turns a pack to fit: the sides are compared longest to longest", () => {
    expect(
      fitsInside({ lengthMm: 150, widthMm: 400, heightMm: 250 }, { lengthMm: 400, widthMm: 300, heightMm: 200 }),
    ).toBe(true);
    expect(
      fitsInside({ lengthMm: 150, widthMm: 400, heightMm: 310 }, { lengthMm: 400, widthMm: 300, heightMm: 200 }),
    ).toBe(false);
  });
});

describe("compartmentFor", () => {
  it("chooses the smallest locker box one parcel goes into, none for a box too long, and none for two parcels", () => {
    expect(compartmentFor(packOrder([pads(1)], DEFAULT_BOX_SIZES), TCG_LOCKER_COMPARTMENTS)?.code).toBe("L");
    expect(compartmentFor(packOrder([nappies(3)], DEFAULT_BOX_SIZES), TCG_LOCKER_COMPARTMENTS)?.code).toBe("L");
    // Five packs need the large box, 80 cm long: longer than any locker.
    expect(compartmentFor(packOrder([nappies(5)], DEFAULT_BOX_SIZES), TCG_LOCKER_COMPARTMENTS)).toBeNull();
    expect(compartmentFor(packOrder([nappies(15)], DEFAULT_BOX_SIZES), TCG_LOCKER_COMPARTMENTS)).toBeNull();
  });

  it("refuses a box over the compartment's weight", () => {
    const heavy = packOrder([{ ...pads(1), weightGrams: 4_900 }], DEFAULT_BOX_SIZES);
    expect(
      compartmentFor(heavy, [{ code: "L", lengthMm: 600, widthMm: 410, heightMm: 410, maxWeightGrams: 4_000 }]),
    ).toBeNull();
  });
});
