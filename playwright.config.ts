import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;
/**
 * Where the shop writes captured messages in full (MAIL_CAPTURE_DIR): the only place a reset link
 * can be read, since the admin's Emails tab shows it redacted. Inside the run's data directory.
 */
const mailCaptureDir = path.resolve(process.env.DATA_DIR ?? "data", "captured-mail");

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // The storefront spec checks the grid against the whole catalogue: it runs first, before any
    // other spec adds, renames or removes a product on the shared server (CI caught the race).
    { name: "storefront", use: { ...devices["Desktop Chrome"] }, testMatch: /storefront\.spec\.ts/ },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"] },
      testIgnore: [/large-catalog\.spec\.ts/, /storefront\.spec\.ts/],
      dependencies: ["storefront"],
    },
    // Adds a few hundred products, which the storefront specs (today's catalogue on one page) must
    // not see: it runs after them, and removes its products when it is done.
    {
      name: "large-catalog",
      use: { ...devices["Desktop Chrome"] },
      testMatch: /large-catalog\.spec\.ts/,
      dependencies: ["chromium"],
    },
  ],
  webServer: {
    command: "node dist/server/main.js",
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      PAYFAST_MODE: "local",
      LOG_LEVEL: "warn",
      // Its own PostgreSQL port, so suites on different E2E_PORTs can run side by side.
      EMBEDDED_PG_PORT: String(process.env.E2E_PG_PORT ?? 54339 + (port - 3100)),
      // Every spec signs in from 127.0.0.1 against this one server: keep the login rate limit out of the way.
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      // And the daily reset requests of one network (each address keeps its 5 a day).
      RESETS_PER_NETWORK_PER_DAY: "10000",
      // And the order limits (their edges are tested in tests/api/order-limits.test.ts).
      UNPAID_ORDERS_PER_ACCOUNT: "100",
      UNPAID_ORDERS_PER_ADDRESS: "10000",
      ORDER_RATE_LIMIT_PER_MINUTE: "1000",
      MAIL_CAPTURE_DIR: mailCaptureDir,
      // An enrolled admin's last code goes stale after 6 s, not 10 minutes: the step-up prompt is seen
      // without waiting (tests/e2e/admin-two-factor.spec.ts). Admins without a second factor never see it.
      ADMIN_STEP_UP_MINUTES: "0.1",
      // A payment whose notification is lost is found by reconciliation within seconds, not 15 minutes.
      PAYFAST_RECONCILE_MINUTES: "0.05",
      // The "your next box" e-mails within seconds (tests/e2e/plans.spec.ts reads their links).
      PLAN_NOTICE_MINUTES: "0.05",
      // The emulator's payment page on a second origin, as live PayFast's payment.payfast.io.
      PAYFAST_EMULATOR_PAYMENT_PORT: String(port + 1),
    },
  },
});
