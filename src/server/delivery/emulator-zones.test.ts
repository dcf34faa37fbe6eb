import { describe, expect, it } from "vitest";
import { chargeableKg, emulatedDoorRate, zoneOfPostalCode } from "./emulator-zones.js";

describe("the emulator's zone table", () => {
  it.each([
    ["2196", "metro"], // Sandton
    ["0002", "metro"], // Pretoria
    ["8001", "metro"], // Cape Town
    ["4001", "metro"], // Durban
    ["2520", "regional"], // Potchefstroom
    ["9301", "regional"], // Bloemfontein
    ["8801", "outlying"], // Upington
    ["0950", "outlying"], // Thohoyandou
    ["5100", "outlying"], // Mthatha
    ["0000", null],
    ["21A6", null],
  ])("%s is %s", (code, zone) => {
    expect(zoneOfPostalCode(code)).toBe(zone);
  });

  it("charges the greater of weight and volume, per started kg over 2", () => {
    expect(chargeableKg([{ l: 40, w: 30, h: 20, kg: 1 }])).toBeCloseTo(4.8);
    expect(emulatedDoorRate("metro", "ECO", 1)).toBe(70);
    expect(emulatedDoorRate("metro", "ECO", 4.8)).toBe(82);
    expect(emulatedDoorRate("outlying", "EXP", 2)).toBe(260);
  });
});
