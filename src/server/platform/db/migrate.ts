import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The committed migrations: beside this file, in src/ or in a release's dist/server/platform/db/ (copied
 * there by scripts/release-files.mjs, the last step of `npm run build`); back in src/ for a dist/
 * that only tsc made (the soak's server build) inside the repository.
 */
export function migrationsFolder(): string {
  const beside = fileURLToPath(new URL("./migrations", import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL("../../../../src/server/platform/db/migrations", import.meta.url));
}
