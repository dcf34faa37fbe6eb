import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTH_LIMITS_OFF, backupFileIn, ORDER_LIMITS_OFF, runCommand, startApp } from "./helpers/app-process.js";
import { expectLedgerKept, prepareShoppers, startCheckoutLoad } from "./helpers/checkout-load.js";
import { call } from "./helpers/http.js";
import { createFreshDatabase, externalPostgres, makeTempDir } from "./helpers/postgres.js";
import { logIn, startValidator } from "./helpers/shop.js";

/**
 * A damaged backup restored (issue 38's fault suite): the restore fails, the shop refuses to open
 * on what it left (naming the file and the command), and the good file restored over it gives back
 * every order and payment, the invoice numbers carrying on where they stopped.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe("a damaged backup restored", () => {
  it("fails, the shop will not open on what it left, and the good file restored over it gives everything back", async () => {
    const server = await externalPostgres();
    expect(server, "the fault suite needs the PostgreSQL at 127.0.0.1:5432").not.toBeNull();
    const original = await createFreshDatabase(server as string);
    cleanups.push(original.drop);
    const validator = await startValidator();
    cleanups.push(validator.close);
    const env = { PAYFAST_VALIDATE_URL: validator.url, ...AUTH_LIMITS_OFF, ...ORDER_LIMITS_OFF };
    const shop = await startApp({ env: { DATABASE_URL: original.url, ...env } });
    cleanups.push(() => shop.kill());
    const customers = await prepareShoppers(shop.url, 4, "dmg");
    const load = await startCheckoutLoad({ urls: () => [shop.url], customers, shoppers: 8, prefix: "dmg" });
    await load.moreOrders(30, 30_000).finally(load.stop);
    await shop.stop();

    const dir = await makeTempDir("shop-rel-dmg-");
    await fs.chmod(dir, 0o700);
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const made = await runCommand("backup", ["--dir", dir], { DATABASE_URL: original.url }).done;
    expect(made.code, made.output).toBe(0);
    // It says which database it backs up, then the file it wrote.
    const good = backupFileIn(made.output);
    expect(good, made.output).toMatch(/^\/.*shop-.*\.backup\.gz$/);

    // The disk lost a stretch of the file's middle.
    const bytes = await fs.readFile(good);
    const damaged = path.join(dir, "damaged.backup.gz");
    const hole = Math.floor(bytes.length / 2);
    bytes.fill(0, hole, Math.min(bytes.length - 64, hole + 4_096));
    await fs.writeFile(damaged, bytes, { mode: 0o600 });

    const target = await createFreshDatabase(server as string);
    cleanups.push(target.drop);
    const failed = await runCommand("restore", [damaged], { DATABASE_URL: target.url, BACKUP_DIR: dir }).done;
    expect(failed.code, failed.output).toBe(1);

    // The shop refuses to open on it, naming the file and how to finish.
    const refused = await startApp({ env: { DATABASE_URL: target.url, ...env }, readyTimeoutMs: 30_000 }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused, "the shop opened on a failed restore").not.toBeNull();
    expect(refused).toContain("app exited before it was ready");
    expect(refused).toContain("damaged.backup.gz");
    expect(refused).toContain("restore");

    // The good file, restored over what the failure left, opens as the same shop.
    const startedAt = Date.now();
    const restored = await runCommand("restore", [good, "--force"], { DATABASE_URL: target.url, BACKUP_DIR: dir }).done;
    expect(restored.code, restored.output).toBe(0);
    const reopened = await startApp({ env: { DATABASE_URL: target.url, ...env } });
    cleanups.push(() => reopened.kill());
    const recoveredMs = Date.now() - startedAt;
    await expectLedgerKept(target.url, load);

    // A customer logs in there and sees their orders; the next payment takes the next invoice number.
    const customer = customers[0];
    if (!customer) throw new Error("no customer");
    const cookie = await logIn(reopened.url, customer.username, customer.password);
    const orders = await call(reopened.url, "GET", `/api/users/${customer.id}/orders`, { cookie });
    expect(orders.status).toBe(200);
    expect((orders.json as unknown[]).length).toBeGreaterThan(0);
    const more = await startCheckoutLoad({
      urls: () => [reopened.url],
      customers: [{ ...customer, cookie }],
      shoppers: 1,
      prefix: "dmg-after",
    });
    await more.moreOrders(2, 20_000).finally(more.stop);
    await expectLedgerKept(target.url, {
      confirmed: new Set([...load.confirmed, ...more.confirmed]),
      paid: new Set([...load.paid, ...more.paid]),
    });
    console.info(
      `damaged-restore: restore refused the damaged file; the good one restored and the shop serving ${recoveredMs} ms after the restore began (${load.confirmed.size} orders)`,
    );
    expect(await reopened.stop()).toEqual({ code: 0, signal: null });
  });
});
