import { statSync } from "node:fs";

/**
 * Why the backup folder is not safe to write to, or null when it is (or does not exist yet: it is
 * then made 0700). Backups hold every customer's name, address and orders, and a restore loads
 * whatever file is in the folder, so nobody but the shop's own user may read, list or change it:
 * any permission for the group or others is refused, at start (config.ts) and before each backup
 * (create.ts). The shop does not chmod it itself: the folder is the operator's (often a mounted
 * volume shared with an off-site copier on purpose), so they decide, with the command given.
 * Windows has no such mode bits; there the check is skipped.
 */
export function backupFolderProblem(dir: string): string | null {
  if (process.platform === "win32") return null;
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    return `BACKUP_DIR: cannot check ${dir} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}).`;
  }
  if (!stat.isDirectory()) return `BACKUP_DIR: ${dir} is not a folder.`;
  const mode = Number(stat.mode) & 0o777;
  if ((mode & 0o077) === 0) return null;
  return `BACKUP_DIR: ${dir} is open to other users of this machine (mode ${mode.toString(8).padStart(4, "0")}): backups hold every customer's details and a restore loads whatever file is there. Make it the shop's own: chmod 700 '${dir}'`;
}

/** Thrown before a backup is written into a folder others can read or change. */
export class BackupFolderError extends Error {}
