import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETENTION_YEARS,
  LAST_RETURN_DUE_MONTHS,
  retentionCutoff,
  retentionEndsAt,
  taxYearEnd,
} from "./retention";

/** A South African local time ("2024-02-29T23:59") as an instant. */
const sa = (local: string) => new Date(`${local}:00+02:00`);

describe("taxYearEnd", () => {
  it.each([
    ["2024-02-29T23:59", "2024-02-29"], // a leap year's last day still belongs to the tax year ending then
    ["2024-03-01T00:00", "2025-02-28"], // 1 March starts the next one
    ["2023-02-28T23:59", "2023-02-28"],
    ["2023-03-01T00:00", "2024-02-29"], // the tax year 2023/24 ends on a leap day
    ["2025-01-01T00:00", "2025-02-28"],
    ["2025-12-31T23:59", "2026-02-28"],
  ])("puts %s (South African time) in the tax year ending %s", (local, end) => {
    expect(taxYearEnd(sa(local))).toBe(end);
  });

  it("counts the day in South Africa, not in UTC", () => {
    // 22:30 UTC on 29 February is already 1 March in South Africa.
    expect(taxYearEnd(new Date("2024-02-29T22:30:00Z"))).toBe("2025-02-28");
    expect(taxYearEnd(new Date("2024-02-29T21:59:59Z"))).toBe("2024-02-29");
  });
});

describe("retentionEndsAt", () => {
  it("keeps 7 years (Companies Act s24) and the 12 months until the year's income tax return is due", () => {
    expect(DEFAULT_RETENTION_YEARS).toBe(7);
    expect(LAST_RETURN_DUE_MONTHS).toBe(12);
  });

  it.each([
    // placed (SA time), years, details may go from (SA time)
    ["2024-02-29T23:59", 7, "2032-03-01T00:00"], // tax year 2023/24 ends 29 Feb 2024; its ITR14 is due end Feb 2025; + 7 years
    ["2024-03-01T00:00", 7, "2033-03-01T00:00"], // 1 March starts the next tax year
    ["2026-12-02T10:00", 7, "2035-03-01T00:00"],
    ["2024-02-29T23:59", 5, "2030-03-01T00:00"], // the least allowed: 5 years after the return's last due day (TAA s29(3)(a))
    ["2024-03-01T00:00", 5, "2031-03-01T00:00"],
    ["2019-03-01T00:00", 5, "2026-03-01T00:00"], // tax year 2019/20 ends 29 Feb 2020, return due 28 Feb 2021
    ["2020-02-29T12:00", 5, "2026-03-01T00:00"],
    ["2020-02-29T12:00", 4, "2025-03-01T00:00"], // 28 Feb 2025 is still kept
    ["2021-06-15T10:00", 1, "2024-03-01T00:00"],
  ])("keeps an order placed %s for %i years after its tax year and its return: until %s", (placed, years, from) => {
    expect(retentionEndsAt(sa(placed), years)).toEqual(sa(from));
  });

  it("never ends before 5 years from the last day the year's return may be submitted", () => {
    for (const placed of ["2023-03-01T00:00", "2024-02-29T23:59", "2025-07-31T12:00"].map(sa)) {
      const returnDue = new Date(Date.UTC(Number(taxYearEnd(placed).slice(0, 4)) + 1, 2, 0)); // end of Feb, a year on
      const fiveYearsOn = new Date(Date.UTC(returnDue.getUTCFullYear() + 5, 2, 0) + 86_400_000 - 2 * 3_600_000);
      expect(retentionEndsAt(placed, 5).getTime()).toBeGreaterThanOrEqual(fiveYearsOn.getTime());
    }
  });
});

describe("retentionCutoff", () => {
  it.each([
    // now (SA time), years, orders placed before this are due (SA time)
    ["2031-02-28T23:59", 5, "2024-03-01T00:00"],
    ["2031-03-01T00:00", 5, "2025-03-01T00:00"],
    ["2030-02-28T23:59", 5, "2023-03-01T00:00"],
    ["2030-03-01T00:00", 5, "2024-03-01T00:00"],
    ["2032-02-29T23:59", 7, "2023-03-01T00:00"],
    ["2032-03-01T00:00", 7, "2024-03-01T00:00"],
    ["2035-01-15T09:00", 7, "2026-03-01T00:00"],
    ["2024-02-29T23:59", 1, "2021-03-01T00:00"],
    ["2024-03-01T00:00", 1, "2022-03-01T00:00"],
  ])("at %s with %i years, takes orders placed before %s", (now, years, cutoff) => {
    expect(retentionCutoff(sa(now), years)).toEqual(sa(cutoff));
  });

  it("agrees with retentionEndsAt at every edge: due exactly when its retention has ended", () => {
    const placedTimes = ["2019-02-28T23:59", "2019-03-01T00:00", "2020-02-29T23:59", "2020-03-01T00:00"].map(sa);
    const nows = ["2025-02-28T23:59", "2025-03-01T00:00", "2026-02-28T23:59", "2026-03-01T00:00"].map(sa);
    for (const years of [1, 5, 7]) {
      for (const placed of placedTimes) {
        for (const now of [...nows, ...nows.map((n) => new Date(n.getTime() + (years - 5) * 365 * 86_400_000))]) {
          const due = placed < retentionCutoff(now, years);
          expect(due, `${placed.toISOString()} at ${now.toISOString()}, ${years}y`).toBe(
            retentionEndsAt(placed, years) <= now,
          );
        }
      }
    }
  });
});
