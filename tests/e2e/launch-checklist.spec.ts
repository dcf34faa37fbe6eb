import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { logInAsNewAdmin } from "./helpers";

const DUTY = "Keep the PAIA manual available";

async function openBeforeYouOpen(page: Page, origin = "") {
  await page.goto(`${origin}/admin`);
  await page.getByRole("tab", { name: "Before you open", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Before you open" })).toBeVisible();
}

/**
 * The shop started again: a second `node dist/server/main.js` on the e2e server's database (the
 * embedded PostgreSQL of the run's DATA_DIR, reached by DATABASE_URL, as a shop on a managed
 * database would be), answering on its own port. It holds nothing of the first process: what it
 * shows comes from the database alone. The run's server cannot be restarted under Playwright.
 */
async function startShopAgain(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir) throw new Error("DATA_DIR is unset: run the browser tests with tests/e2e/run.mjs");
  const password = readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim();
  // postmaster.pid's fourth line is the port the embedded server listens on.
  const pgPort = readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")
    .split("\n")[3]
    ?.trim();
  const port = Number(new URL(baseURL).port) + 50;
  const origin = `http://localhost:${port}`;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "shop-again-"));
  const shop: ChildProcess = spawn("node", ["dist/server/main.js"], {
    env: {
      ...process.env,
      DATABASE_URL: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/shop`,
      DATA_DIR: scratch,
      MAIL_CAPTURE_DIR: path.join(scratch, "mail"),
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      PAYFAST_MODE: "local",
      PAYFAST_EMULATOR_PAYMENT_PORT: String(port + 1),
      LOG_LEVEL: "warn",
      BACKUP_EVERY_HOURS: "0",
      ALERT_CHECK_MINUTES: "0",
    },
    stdio: "ignore",
  });
  const stop = async () => {
    if (shop.exitCode === null) {
      const exited = new Promise((resolve) => shop.once("exit", resolve));
      shop.kill("SIGTERM");
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    await expect(async () => {
      expect(shop.exitCode).toBeNull();
      expect((await fetch(`${origin}/api/health`)).status).toBe(200);
    }).toPass({ timeout: 60_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}

test("the owner ticks an item of Before you open, and the tick outlasts a reload and a restart of the shop", async ({
  page,
}) => {
  // Starting a second shop process is most of it: minutes on a loaded machine.
  test.setTimeout(240_000);
  const admin = await logInAsNewAdmin(page);
  await openBeforeYouOpen(page);

  const duty = page.getByRole("checkbox", { name: DUTY });
  await expect(duty).not.toBeChecked();
  await expect(page.getByText("Source: PAIA (Promotion of Access to Information Act 2 of 2000) s51")).toBeVisible();
  const progress = page.getByText(/^\d+ of 9 done$/);
  const doneBefore = Number((await progress.textContent())?.split(" ")[0]);

  await duty.check();
  await expect(duty).toBeChecked();
  await expect(page.getByText(`Ticked by ${admin.username}`)).toBeVisible();
  await expect(progress).toHaveText(`${doneBefore + 1} of 9 done`);

  // A reload asks the server afresh.
  await page.reload();
  await page.getByRole("tab", { name: "Before you open", exact: true }).click();
  await expect(page.getByRole("checkbox", { name: DUTY })).toBeChecked();
  await expect(page.getByText(`Ticked by ${admin.username}`)).toBeVisible();

  // The shop started again on the same database shows the tick, who set it, and the audit record.
  const again = await startShopAgain();
  try {
    await openBeforeYouOpen(page, again.origin);
    await expect(page.getByRole("checkbox", { name: DUTY })).toBeChecked();
    await expect(page.getByText(`Ticked by ${admin.username}`)).toBeVisible();
    await page.getByRole("tab", { name: "Activity", exact: true }).click();
    await expect(page.getByText("Before you open: item ticked").first()).toBeVisible();
  } finally {
    await again.stop();
  }

  // The owner changes their mind: unticked, and that too is kept.
  await openBeforeYouOpen(page);
  await page.getByRole("checkbox", { name: DUTY }).uncheck();
  await expect(page.getByText(`Unticked by ${admin.username}`)).toBeVisible();
  await page.reload();
  await page.getByRole("tab", { name: "Before you open", exact: true }).click();
  await expect(page.getByRole("checkbox", { name: DUTY })).not.toBeChecked();
});

test("the dashboard says how many duties are not ticked yet", async ({ page }) => {
  await logInAsNewAdmin(page);
  await page.goto("/admin");
  await expect(
    page.getByText(
      /^\d of 9 things the law asks of you outside the shop (is|are) not ticked yet: see Before you open\.$/,
    ),
  ).toBeVisible({ timeout: 30_000 });
});
