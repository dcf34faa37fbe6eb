import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("the backup, metrics and alert settings", () => {
  it("default to daily backups kept 14 days in DATA_DIR/backups, no metrics, alerts to SHOP_EMAIL every minute", () => {
    const config = loadConfig({ DATA_DIR: "/srv/shop/data", SHOP_EMAIL: "owner@example.co.za" });
    expect(config.backup).toEqual({ dir: "/srv/shop/data/backups", everyHours: 24, keepDays: 14 });
    expect(config.metricsToken).toBeUndefined();
    expect(config.alerts).toEqual({ to: "owner@example.co.za", checkMinutes: 1, diskFreePercent: 10 });
  });

  it("take what is set, and 0 turns the backup job and the alert checks off", () => {
    const config = loadConfig({
      BACKUP_DIR: "backups-elsewhere",
      BACKUP_EVERY_HOURS: "0",
      BACKUP_KEEP_DAYS: "30",
      ALERT_EMAIL: "alerts@example.co.za",
      ALERT_CHECK_MINUTES: "0",
      ALERT_DISK_FREE_PERCENT: "5",
    });
    expect(config.backup).toEqual({ dir: path.resolve("backups-elsewhere"), everyHours: 0, keepDays: 30 });
    expect(config.alerts).toEqual({ to: "alerts@example.co.za", checkMinutes: 0, diskFreePercent: 5 });
  });

  it("refuse what makes no sense, naming the setting", () => {
    for (const [name, value, message] of [
      ["BACKUP_KEEP_DAYS", "0", /BACKUP_KEEP_DAYS/],
      ["BACKUP_EVERY_HOURS", "-1", /BACKUP_EVERY_HOURS/],
      ["ALERT_EMAIL", "not-an-address", /ALERT_EMAIL/],
      ["ALERT_CHECK_MINUTES", "abc", /ALERT_CHECK_MINUTES/],
      ["ALERT_DISK_FREE_PERCENT", "101", /ALERT_DISK_FREE_PERCENT/],
      ["METRICS_TOKEN", "x".repeat(23), /METRICS_TOKEN: must be at least 24 characters/],
      ["METRICS_TOKEN", `${"x".repeat(24)} y`, /METRICS_TOKEN: must be printable characters without spaces/],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(message);
    }
  });
});
