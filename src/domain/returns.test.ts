import { describe, expect, it } from "vitest";
import {
  canMoveRequest,
  coolingOffLastDay,
  declineRefusal,
  defectLastDay,
  deliveryDay,
  isOpenRequest,
  movedOffSundayOrHoliday,
  offeredRefundCents,
  paidForUnits,
  RETURN_STATUSES,
  receiptDay,
  requestDeadline,
  returnReferenceText,
  returnWindows,
  statedReceiptRefusal,
} from "./returns.js";
import {
  addBusinessDays,
  addMonths,
  businessDaysBetween,
  endOfSaDay,
  isBusinessDay,
  saDay,
  saPublicHolidays,
} from "./sa-calendar.js";

const shipped = (deliveredAt: string | null, shippedAt = "2026-03-02T08:00:00Z") => ({
  status: "processed",
  deliveredAt: deliveredAt ? new Date(deliveredAt) : null,
  shippedAt: new Date(shippedAt),
});

describe("South African days", () => {
  it.each([
    ["2026-03-10T21:59:59Z", "2026-03-10"],
    ["2026-03-10T22:00:00Z", "2026-03-11"], // midnight in Johannesburg
  ])("%s is %s in South Africa", (instant, day) => {
    expect(saDay(new Date(instant))).toBe(day);
  });

  it("ends a day at midnight South African time", () => {
    expect(endOfSaDay("2026-03-10").toISOString()).toBe("2026-03-10T21:59:59.999Z");
  });

  it("knows the public holidays, Easter's and Sunday's Mondays included", () => {
    const y2026 = saPublicHolidays(2026);
    for (const day of ["2026-01-01", "2026-03-21", "2026-04-03", "2026-04-06", "2026-04-27", "2026-12-16"]) {
      expect(y2026.has(day), day).toBe(true);
    }
    // 2026-08-09 (Women's Day) is a Sunday: the Monday is a holiday.
    expect(y2026.has("2026-08-10")).toBe(true);
    // Easter 2025 was 20 April: Good Friday 18, Family Day 21.
    expect(saPublicHolidays(2025).has("2025-04-18")).toBe(true);
    expect(saPublicHolidays(2025).has("2025-04-21")).toBe(true);
  });

  it.each([
    ["2026-03-13", true], // Friday
    ["2026-03-14", false], // Saturday
    ["2026-03-15", false], // Sunday
    ["2026-03-21", false], // Human Rights Day (a Saturday anyway)
    ["2026-04-27", false], // Freedom Day, a Monday
    ["2026-04-28", true],
  ])("%s is a business day: %s", (day, expected) => {
    expect(isBusinessDay(day)).toBe(expected);
  });

  it.each([
    ["2026-03-02", 5, "2026-03-09"], // Monday + 5 = next Monday
    ["2026-03-06", 1, "2026-03-09"], // Friday + 1 skips the weekend
    ["2026-04-01", 5, "2026-04-10"], // skips Good Friday and Family Day
    ["2026-12-15", 3, "2026-12-21"], // skips the Day of Reconciliation (16th) and the weekend
  ])("%s plus %i business days is %s", (day, count, expected) => {
    expect(addBusinessDays(day, count)).toBe(expected);
  });

  it("counts business days between two days", () => {
    expect(businessDaysBetween("2026-03-02", "2026-03-09")).toBe(5);
    expect(businessDaysBetween("2026-03-09", "2026-03-02")).toBe(0);
  });

  it.each([
    ["2026-03-10", 6, "2026-09-10"],
    ["2026-08-31", 6, "2027-02-28"],
    ["2027-08-31", 6, "2028-02-29"],
    ["2026-10-15", 6, "2027-04-15"],
  ])("%s plus %i months is %s", (day, months, expected) => {
    expect(addMonths(day, months)).toBe(expected);
  });
});

describe("the day the customer received the goods", () => {
  const shippedMonday = new Date("2026-03-02T08:00:00Z");
  it.each([
    // recorded delivery, the customer's stated day, the day counted from and its basis
    ["2026-03-04T10:00:00Z", null, { day: "2026-03-04", basis: "recorded_delivery" }],
    ["2026-03-04T10:00:00Z", "2026-03-20", { day: "2026-03-04", basis: "recorded_delivery" }], // the record wins
    ["2026-03-04T22:30:00Z", null, { day: "2026-03-05", basis: "recorded_delivery" }], // a South African day
    [null, "2026-03-20", { day: "2026-03-20", basis: "customer_stated" }], // a late courier: no guess from shipping
    [null, null, null], // unknown: the customer is asked
  ] as const)("recorded %s, stated %s: %j", (deliveredAt, stated, expected) => {
    const order = { deliveredAt: deliveredAt ? new Date(deliveredAt) : null, shippedAt: shippedMonday };
    expect(receiptDay(order, stated)).toEqual(expected);
  });

  it("is the recorded delivery day when there is one, and none otherwise", () => {
    expect(deliveryDay({ deliveredAt: new Date("2026-03-04T10:00:00Z") })).toBe("2026-03-04");
    expect(deliveryDay({ deliveredAt: null })).toBeNull();
  });

  it.each([
    // stated, today, shipped on, refusal (null: accepted)
    ["2026-03-10", "2026-03-10", "2026-03-02", null], // today
    ["2026-03-02", "2026-03-10", "2026-03-02", null], // the day it was sent
    ["2026-03-11", "2026-03-10", "2026-03-02", "cannot be after today (2026-03-10)"],
    ["2026-03-01", "2026-03-10", "2026-03-02", "cannot be before the order was sent (2026-03-02)"],
  ])("a stated receipt day %s (today %s, sent %s) is refused because: %s", (stated, today, shippedOn, refusal) => {
    const answer = statedReceiptRefusal(stated, { today, shippedOn });
    if (refusal === null) expect(answer).toBeNull();
    else expect(answer).toContain(refusal);
  });
});

describe("a last day on a Sunday or public holiday moves to the next business day (Interpretation Act s4)", () => {
  it.each([
    ["2026-03-17", "2026-03-17"], // a Tuesday stays
    ["2026-03-14", "2026-03-14"], // a Saturday stays: the Act moves Sundays and public holidays only
    ["2026-03-15", "2026-03-16"], // Sunday -> Monday
    ["2026-05-01", "2026-05-04"], // Workers' Day, a Friday -> Monday (past the weekend)
    ["2026-08-09", "2026-08-11"], // Women's Day on a Sunday, Monday 10th its holiday -> Tuesday
    ["2026-04-03", "2026-04-07"], // Good Friday -> past Family Day to Tuesday
    ["2026-12-25", "2026-12-28"], // Christmas (Friday), the Day of Goodwill (Saturday) -> Monday
  ])("%s becomes %s", (day, expected) => {
    expect(movedOffSundayOrHoliday(day)).toBe(expected);
  });

  it.each([
    // received, the 7 days' last day (ECTA s44(1)), the 6 months' last day (CPA s56)
    // A Friday before Freedom Day (Monday 27th): day 7 is Workers' Day (Friday) -> Monday 4 May; 24 October is a Saturday and stays.
    ["2026-04-24", "2026-05-04", "2026-10-24"],
    ["2026-03-01", "2026-03-09", "2026-09-01"], // received on a Sunday: day 7 (8 March) is a Sunday -> Monday 9 March
    ["2026-03-10", "2026-03-17", "2026-09-10"], // nothing to move
    ["2026-06-09", "2026-06-17", "2026-12-09"], // day 7 is Youth Day (Tuesday 16 June) -> Wednesday 17th
  ])("goods received %s: 7 days until %s, 6 months until %s", (received, sevenDays, sixMonths) => {
    expect(coolingOffLastDay(received)).toBe(sevenDays);
    expect(defectLastDay(received)).toBe(sixMonths);
  });
});

describe("return windows", () => {
  const delivered = shipped("2026-03-10T09:00:00Z");

  it("keeps changed-mind and wrong-size open on day 7 after delivery and closes them on day 8", () => {
    const day7 = returnWindows(delivered, "2026-03-17");
    expect(day7.changed_mind).toMatchObject({ open: true, lastDay: "2026-03-17" });
    expect(day7.wrong_size.open).toBe(true);
    const day8 = returnWindows(delivered, "2026-03-18");
    expect(day8.changed_mind.open).toBe(false);
    expect(day8.wrong_size.open).toBe(false);
    expect(day8.changed_mind.closedBecause).toContain("7 days after you received them");
    expect(day8.defective.open).toBe(true);
    expect(day8.complaint.open).toBe(true);
  });

  it("counts from the day the customer says they received the goods when no delivery was recorded", () => {
    const notRecorded = shipped(null, "2026-03-02T08:00:00Z");
    // A courier three weeks late: received Monday 23 March, the window runs to Monday 30 March.
    expect(returnWindows(notRecorded, "2026-03-30", "2026-03-23").changed_mind).toMatchObject({
      open: true,
      lastDay: "2026-03-30",
    });
    expect(returnWindows(notRecorded, "2026-03-31", "2026-03-23").changed_mind.open).toBe(false);
    expect(returnWindows(notRecorded, "2026-03-31", "2026-03-23").defective).toMatchObject({
      open: true,
      lastDay: "2026-09-23",
    });
    // A recorded delivery wins over what the customer says.
    expect(returnWindows(delivered, "2026-03-18", "2026-03-17").changed_mind.open).toBe(false);
  });

  it("keeps the windows open with no last day while the receipt day is unknown: the form asks it", () => {
    const notRecorded = shipped(null, "2026-03-02T08:00:00Z");
    const windows = returnWindows(notRecorded, "2026-06-30");
    expect(windows.changed_mind).toMatchObject({ open: true, lastDay: null });
    expect(windows.defective).toMatchObject({ open: true, lastDay: null });
  });

  it("moves a day 7 on a Sunday to the Monday, and past a public holiday", () => {
    const onSunday = shipped("2026-03-01T09:00:00Z", "2026-02-27T08:00:00Z"); // received Sunday 1 March
    expect(returnWindows(onSunday, "2026-03-09").changed_mind).toMatchObject({ open: true, lastDay: "2026-03-09" });
    expect(returnWindows(onSunday, "2026-03-10").changed_mind.open).toBe(false);
    // Received Friday 24 April 2026, before Freedom Day: day 7 is Workers' Day, open until Monday 4 May.
    const beforeHoliday = shipped(null, "2026-04-22T08:00:00Z");
    expect(returnWindows(beforeHoliday, "2026-05-04", "2026-04-24").changed_mind).toMatchObject({
      open: true,
      lastDay: "2026-05-04",
    });
    expect(returnWindows(beforeHoliday, "2026-05-05", "2026-04-24").changed_mind.open).toBe(false);
  });

  it("keeps defective and not-as-ordered open until 6 months after delivery, then only complaints", () => {
    const lastDay = returnWindows(delivered, "2026-09-10");
    expect(lastDay.defective).toMatchObject({ open: true, lastDay: "2026-09-10" });
    expect(lastDay.not_as_ordered.open).toBe(true);
    const after = returnWindows(delivered, "2026-09-11");
    expect(after.defective.open).toBe(false);
    expect(after.not_as_ordered.open).toBe(false);
    expect(after.complaint).toMatchObject({ open: true, lastDay: null });
  });

  it("offers a cancellation or a complaint on a paid order that has not shipped, and complaints on any paid order", () => {
    const paid = returnWindows({ status: "completed", deliveredAt: null, shippedAt: null }, "2026-03-10");
    expect(paid.cancellation.open).toBe(true);
    expect(paid.changed_mind.open).toBe(false);
    expect(paid.complaint.open).toBe(true);
    expect(returnWindows(delivered, "2026-03-10").cancellation.open).toBe(false);
    expect(
      returnWindows({ status: "pending", deliveredAt: null, shippedAt: null }, "2026-03-10").cancellation.open,
    ).toBe(false);
  });
});

describe("deadlines", () => {
  it.each([
    ["changed_mind", "refund_30_days", "2026-04-09"],
    ["wrong_size", "refund_30_days", "2026-04-09"],
    ["cancellation", "refund_30_days", "2026-04-09"],
    ["out_of_stock", "refund_30_days", "2026-04-09"],
    ["defective", "resolve_15_business_days", "2026-03-31"],
    ["not_as_ordered", "resolve_15_business_days", "2026-03-31"],
    ["complaint", "resolve_15_business_days", "2026-03-31"],
  ] as const)("a %s request opened on 2026-03-10: %s, last day %s", (reason, kind, lastDay) => {
    expect(requestDeadline(reason, "2026-03-10")).toEqual({ kind, lastDay });
  });

  it("does not count public holidays in the 15 business days", () => {
    // 2026-04-01: Good Friday (3rd), Family Day (6th) and Freedom Day (27th) fall inside.
    expect(requestDeadline("complaint", "2026-04-01").lastDay).toBe("2026-04-24");
  });
});

describe("request statuses", () => {
  it.each([
    ["requested", "accepted", true],
    ["requested", "received", true],
    ["requested", "exchanged", false],
    ["accepted", "received", true],
    ["received", "refunded", true],
    ["received", "exchanged", true],
    ["refunded", "refunded", false],
    ["declined", "accepted", false],
    ["resolved", "declined", false],
  ] as const)("%s -> %s: %s", (from, to, allowed) => {
    expect(canMoveRequest(from, to)).toBe(allowed);
  });

  it("has four ends", () => {
    expect(RETURN_STATUSES.filter((status) => !isOpenRequest(status))).toEqual([
      "declined",
      "refunded",
      "exchanged",
      "resolved",
    ]);
  });

  it("refuses to decline a sealed return before the goods are back, or a cancellation ever", () => {
    expect(declineRefusal("changed_mind", "requested")).toContain("ECTA s44");
    expect(declineRefusal("wrong_size", "accepted")).toContain("ECTA s44");
    expect(declineRefusal("changed_mind", "received")).toBeNull();
    expect(declineRefusal("cancellation", "requested")).toContain("refunded in full");
    expect(declineRefusal("out_of_stock", "requested")).toContain("refunded in full");
    expect(declineRefusal("defective", "requested")).toBeNull();
    expect(declineRefusal("complaint", "requested")).toBeNull();
  });
});

describe("the refund offered", () => {
  const order = { totalCents: 32_500, deliveryFeeCents: 7_500, refundedCents: 0 };
  const lines = [{ unitPriceCents: 12_500, quantity: 1 }];

  it("gives back everything paid, delivery included, for a cancelled or unfillable order", () => {
    expect(offeredRefundCents({ ...order, reason: "cancellation", lines: [], returnsWholeOrder: true })).toBe(32_500);
    expect(offeredRefundCents({ ...order, reason: "out_of_stock", lines: [], returnsWholeOrder: true })).toBe(32_500);
  });

  it("gives a partial return its lines' price and a whole return the delivery fee too", () => {
    expect(offeredRefundCents({ ...order, reason: "changed_mind", lines, returnsWholeOrder: false })).toBe(12_500);
    expect(
      offeredRefundCents({
        ...order,
        reason: "changed_mind",
        lines: [{ unitPriceCents: 12_500, quantity: 2 }],
        returnsWholeOrder: true,
      }),
    ).toBe(32_500);
  });

  it("never offers more than is left of the payment, and nothing fixed for a complaint", () => {
    expect(
      offeredRefundCents({ ...order, refundedCents: 30_000, reason: "defective", lines, returnsWholeOrder: false }),
    ).toBe(2_500);
    expect(offeredRefundCents({ ...order, reason: "complaint", lines: [], returnsWholeOrder: false })).toBe(0);
  });

  it("names requests RET-000001", () => {
    expect(returnReferenceText(42)).toBe("RET-000042");
  });
});

describe("paidForUnits", () => {
  it("takes a promo discount's share off the units returned, never refunding more than was paid", () => {
    // 3 x R100.00 sold with R10.00 off the line: R290.00 paid
    const line = { unitPriceCents: 10_000, discountCents: 1_000, boughtQuantity: 3 };
    expect(paidForUnits({ ...line, quantity: 3 })).toBe(29_000);
    expect(paidForUnits({ ...line, quantity: 1 })).toBe(9_666); // 96.666... rounded down
    expect(paidForUnits({ unitPriceCents: 10_000, quantity: 2 })).toBe(20_000);
  });
});
