import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The fault suite's release folder (tests/reliability/build-server.ts): beside dist/, at the same
 * depth, so the compiled server finds the project's package.json as a release's does.
 */
export const faultsDist = path.join(repoRoot, "dist-faults");
