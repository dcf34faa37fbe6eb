import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("the backup, metrics and alert settings", () => {
  it("default to hourly backups at 17 past, kept 14 days in DATA_DIR/backups, no metrics, alerts to SHOP_EMAIL every minute", () => {
    const config = loadConfig({ DATA_DIR: "/srv/shop/data", SHOP_EMAIL: "owner@example.co.za" });
    expect(config.backup).toEqual({
      dir: "/srv/shop/data/backups",
      everyHours: 1,
      minute: 17,
      keepDays: 14,
      s3: undefined,
    });
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
    expect(config.backup).toEqual({
      dir: path.resolve("backups-elsewhere"),
      everyHours: 0,
      minute: 17,
      keepDays: 30,
      s3: undefined,
    });
    expect(config.alerts).toEqual({ to: "alerts@example.co.za", checkMinutes: 0, diskFreePercent: 5 });
  });

  it("take BACKUP_MINUTE from 0 to 59, BACKUP_EVERY_HOURS in whole hours up to a week, and the bucket from BACKUP_S3_URL or its file", () => {
    expect(loadConfig({ BACKUP_EVERY_HOURS: "0", BACKUP_MINUTE: "0" }).backup.minute).toBe(0);
    expect(loadConfig({ BACKUP_EVERY_HOURS: "0", BACKUP_MINUTE: "59" }).backup.minute).toBe(59);
    expect(loadConfig({ BACKUP_EVERY_HOURS: "0", BACKUP_DIR: "/nowhere" }).backup.everyHours).toBe(0);
    const url = "https://KEY:se%2Fcret@s3.af-south-1.amazonaws.com/shop-backups?region=af-south-1";
    const expected = {
      endpoint: "https://s3.af-south-1.amazonaws.com",
      bucket: "shop-backups",
      region: "af-south-1",
      accessKeyId: "KEY",
      secretAccessKey: "se/cret",
    };
    expect(loadConfig({ BACKUP_EVERY_HOURS: "0", BACKUP_S3_URL: url }).backup.s3).toEqual(expected);
    const dir = mkdtempSync(path.join(os.tmpdir(), "shop-backup-s3-"));
    const file = path.join(dir, "backup_s3_url");
    writeFileSync(file, `${url}\n`);
    expect(loadConfig({ BACKUP_EVERY_HOURS: "0", BACKUP_S3_URL_FILE: file }).backup.s3).toEqual(expected);
    rmSync(dir, { recursive: true });
  });

  it("refuse what makes no sense, naming the setting", () => {
    for (const [name, value, message] of [
      ["BACKUP_KEEP_DAYS", "0", /BACKUP_KEEP_DAYS/],
      ["BACKUP_EVERY_HOURS", "-1", /BACKUP_EVERY_HOURS/],
      ["BACKUP_EVERY_HOURS", "1.5", /BACKUP_EVERY_HOURS: must be a whole number of hours/],
      ["BACKUP_EVERY_HOURS", "169", /BACKUP_EVERY_HOURS/],
      ["BACKUP_MINUTE", "60", /BACKUP_MINUTE/],
      ["BACKUP_MINUTE", "-1", /BACKUP_MINUTE/],
      ["BACKUP_S3_URL", "http://KEY:SECRET@backups.example.com/bucket", /BACKUP_S3_URL: must be https/],
      ["BACKUP_S3_URL", "https://backups.example.com/bucket", /BACKUP_S3_URL: needs the access key ID/],
      ["BACKUP_S3_URL", "https://KEY:SECRET@backups.example.com/", /BACKUP_S3_URL: needs the bucket's name/],
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
