import { describe, expect, it } from "vitest";
import { movesShipment, shipmentStateOfVendor } from "./tracking.js";

describe("a shipment's state", () => {
  it.each([
    ["booked", "collected", true],
    ["in_transit", "collected", false],
    ["out_for_delivery", "failed_attempt", true],
    ["failed_attempt", "out_for_delivery", true],
    ["out_for_delivery", "out_for_delivery", false],
    ["delivered", "lost", false],
    ["ready_for_collection", "in_transit", false],
    ["ready_for_collection", "not_collected", true],
  ] as const)("moves from %s to %s: %s", (from, to, moves) => {
    expect(movesShipment(from, to)).toBe(moves);
  });

  it("reads ShipLogic's statuses, an unknown one as in transit", () => {
    expect(shipmentStateOfVendor("in-locker")).toBe("ready_for_collection");
    expect(shipmentStateOfVendor("collected-from-locker")).toBe("delivered");
    expect(shipmentStateOfVendor("on-hold")).toBe("in_transit");
  });
});
