import type { Feature } from "../feature.js";
import { BACKUP_JOB, runScheduledBackup } from "./daily.js";

/**
 * The scheduled backup (docs/backups.md): every BACKUP_EVERY_HOURS at BACKUP_MINUTE past the hour,
 * checked every minute by each instance; the job's lock and backup_runs make it one backup, on one instance.
 */
export const backup = (databaseUrl: string): Feature => ({
  name: "backup",
  jobs: (app) =>
    app.config.backup.everyHours > 0
      ? [
          {
            name: BACKUP_JOB,
            everyMs: 60_000,
            run: async () => {
              const made = await runScheduledBackup({
                pool: app.pool,
                databaseUrl,
                ...app.config.backup,
                warn: (detail, message) => app.log.warn(detail, message),
              });
              if (made) app.log.info({ file: made.file, bytes: made.bytes, copy: made.copy }, "backup written");
              if (made?.copy?.error)
                app.log.error({ key: made.copy.key, reason: made.copy.error }, "backup copy failed");
            },
          },
        ]
      : [],
});
