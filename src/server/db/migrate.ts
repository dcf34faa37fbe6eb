import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The committed migrations: beside this file in src/, or back in src/ when running from dist/. */
export function migrationsFolder(): string {
  const beside = fileURLToPath(new URL("./migrations", import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL("../../../src/server/db/migrations", import.meta.url));
}
