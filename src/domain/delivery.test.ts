import { describe, expect, it } from "vitest";
import { deliveryChargeCents, dispatchDay, expectedDeliveryDay, formatDeliveryDay } from "./delivery.js";

/** An instant at a South African wall-clock time (UTC+2). */
const sa = (dayTime: string) => new Date(`${dayTime}:00+02:00`);

describe("dispatchDay and expectedDeliveryDay", () => {
  it.each([
    ["a Tuesday morning before the cut-off leaves that day", "2026-12-01T09:00", "2026-12-01"],
    ["a Tuesday after the cut-off leaves on Wednesday", "2026-12-01T12:00", "2026-12-02"],
    ["a Saturday leaves on Monday", "2026-12-05T09:00", "2026-12-07"],
    ["the Day of Reconciliation (Wed 16 Dec) leaves on Thursday", "2026-12-16T08:00", "2026-12-17"],
    [
      "Christmas Eve after the cut-off skips Christmas, the Day of Goodwill and the weekend",
      "2026-12-24T13:00",
      "2026-12-28",
    ],
  ])("%s", (_name, at, day) => {
    expect(dispatchDay(sa(at), "12:00")).toBe(day);
  });

  it("counts business days after dispatch, public holidays skipped", () => {
    // Dispatched Tue 15 Dec; Wed 16 Dec is a holiday: Thu 17, Fri 18, then Mon 21 Dec.
    expect(expectedDeliveryDay(sa("2026-12-15T08:00"), "12:00", 3)).toBe("2026-12-21");
    // Good Friday 2027 is 26 March, Family Day 29 March.
    expect(expectedDeliveryDay(sa("2027-03-25T08:00"), "12:00", 1)).toBe("2027-03-30");
  });

  it("is exact at the cut-off's minute", () => {
    expect(dispatchDay(sa("2026-12-01T13:59"), "14:00")).toBe("2026-12-01");
    expect(dispatchDay(sa("2026-12-01T14:00"), "14:00")).toBe("2026-12-02");
  });

  it("names the day as the checkout shows it", () => {
    expect(formatDeliveryDay("2026-12-18")).toBe("Fri 18 Dec");
  });
});

describe("deliveryChargeCents", () => {
  const offered = [
    { service: "door_economy", priceCents: 7_500 },
    { service: "door_express", priceCents: 15_000 },
    { service: "locker", priceCents: 6_000 },
  ] as const;

  it("charges each option's price under the free-delivery threshold", () => {
    expect(deliveryChargeCents(offered[0], offered, 49_999)).toBe(7_500);
  });

  it("from R500 makes door economy free, and a cheaper option too; a dearer one costs what it costs above it", () => {
    expect(deliveryChargeCents(offered[0], offered, 50_000)).toBe(0);
    expect(deliveryChargeCents(offered[2], offered, 50_000)).toBe(0);
    expect(deliveryChargeCents(offered[1], offered, 50_000)).toBe(7_500);
  });

  it("without a door option, makes the cheapest on offer free", () => {
    const points = [offered[2], { service: "pickup_point", priceCents: 6_500 }] as const;
    expect(deliveryChargeCents(points[1], points, 50_000)).toBe(500);
  });
});
