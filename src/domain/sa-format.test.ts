import { describe, expect, it } from "vitest";
import {
  formatCalendarDate,
  formatCalendarMonth,
  formatDay,
  formatDocumentDate,
  formatLongDateTime,
  formatShortDate,
  saMonth,
} from "./sa-format";

describe("South African dates and times", () => {
  it("writes an instant in South African time, whatever the machine's zone", () => {
    // 22:30 UTC on 30 November is 00:30 on 1 December in Johannesburg.
    const lateUtc = new Date("2026-11-30T22:30:00Z");
    expect(formatDocumentDate(lateUtc)).toBe("1 December 2026");
    expect(formatShortDate(lateUtc)).toBe("1 Dec 2026");
    expect(formatDay(lateUtc)).toBe("Tuesday, 1 December 2026");
    expect(formatLongDateTime(lateUtc.toISOString())).toBe("1 December 2026, 00:30");
    expect(saMonth(lateUtc)).toBe("2026-12");
  });

  it("writes an unreadable instant as it came", () => {
    expect(formatLongDateTime("not a date")).toBe("not a date");
  });

  it("names a calendar day and month without a time zone", () => {
    expect(formatCalendarDate("2026-11-26")).toBe("26 November 2026");
    expect(formatCalendarDate("2026-1")).toBe("2026-1");
    expect(formatCalendarMonth("2026-02")).toBe("February 2026");
  });
});
