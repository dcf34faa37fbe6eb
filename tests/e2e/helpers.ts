import { execFileSync } from "node:child_process";

/**
 * Makes an admin the way an operator does, with `npm run admin:create`. The CLI reaches the
 * server's embedded PostgreSQL through DATA_DIR, which tests/e2e/run.mjs sets for the run.
 */
export function createAdminWithCli(admin: { username: string; email: string; password: string }) {
  execFileSync(
    "npm",
    [
      "run",
      "--silent",
      "admin:create",
      "--",
      "--username",
      admin.username,
      "--email",
      admin.email,
      "--password",
      admin.password,
    ],
    { env: process.env, stdio: "pipe" },
  );
}
