import { eq } from "drizzle-orm";
import { freePort } from "#server/platform/db/embedded.js";
import { orders } from "#server/platform/db/schema.js";
import { buildTestApp, type TestApp } from "./app.js";
import { createOrderPayload, type TestCartLine } from "./orders.js";
import { inStockSizes, sizePriceCents, stockedCatalog } from "./stock.js";
import type { LoggedInUser } from "./users.js";
import { waitFor } from "./wait.js";

/**
 * The shop listening on a real port: the emulator's notifications, the ITN's confirmation and the
 * shop's calls to PayFast's API (refunds) all go over real HTTP, as they do in production.
 */
export async function buildListeningApp(
  env: Record<string, string> = {},
  sharedDatabaseUrl?: string,
  poolSize?: number,
): Promise<TestApp> {
  const port = await freePort();
  const t = await buildTestApp(
    { PUBLIC_URL: `http://127.0.0.1:${port}`, PORT: String(port), PAYFAST_RECONCILE_MINUTES: "600", ...env },
    {},
    sharedDatabaseUrl,
    poolSize,
  );
  await t.app.listen({ port, host: "127.0.0.1" });
  return t;
}

/**
 * One in-stock line of a seeded product, `quantity` units of its first size that has them; of a
 * product of `vatClass` when one is asked for ("zero": pads and pantyliners).
 */
export async function stockedLine(
  t: TestApp,
  quantity = 1,
  skip = 0,
  vatClass?: "standard" | "zero",
): Promise<TestCartLine> {
  const product = (await stockedCatalog(t.db)).filter(
    (candidate) =>
      (vatClass === undefined || candidate.vatClass === vatClass) &&
      inStockSizes(candidate).some((size) => (candidate.sellable[size] ?? 0) >= quantity),
  )[skip];
  if (!product) throw new Error("no product in stock");
  const size = inStockSizes(product).find((candidate) => (product.sellable[candidate] ?? 0) >= quantity) as string;
  return { id: product.id, name: product.name, priceCents: sizePriceCents(product, size), size, quantity };
}

/** Places an order through create-order; `business` adds a company name and VAT number. */
export async function placeTestOrder(
  t: TestApp,
  buyer: LoggedInUser,
  lines: readonly TestCartLine[],
  business?: { companyName: string; vatNumber: string },
): Promise<{ orderId: string; payfastData: Record<string, string> }> {
  const payload = createOrderPayload(buyer, lines);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: buyer.headers,
    payload: { ...payload, deliveryInfo: { ...payload.deliveryInfo, ...business } },
  });
  if (response.statusCode !== 200) throw new Error(`create-order: ${response.statusCode} ${response.body}`);
  return response.json() as { orderId: string; payfastData: Record<string, string> };
}

/** Clicks Complete payment on the emulator's page: PayFast takes the money and notifies the shop. */
export async function completeOnEmulator(t: TestApp, payfastData: Record<string, string>): Promise<void> {
  const paid = await t.app.inject({
    method: "POST",
    url: "/payfast-emulator/eng/complete",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(payfastData).toString(),
  });
  if (paid.statusCode !== 303) throw new Error(`emulator payment: ${paid.statusCode} ${paid.body}`);
}

/** Pays an order on the emulator's payment page (Complete payment) and waits until the ITN made it paid. */
export async function payOnEmulator(t: TestApp, orderId: string, payfastData: Record<string, string>): Promise<string> {
  await completeOnEmulator(t, payfastData);
  const row = await waitFor(
    async () => (await t.db.select().from(orders).where(eq(orders.id, orderId)))[0],
    (order) => order?.status === "completed",
    // A notification the shop could not take at once is sent again by the emulator (2 s, 6 s, 12 s...).
    60_000,
  );
  if (!row?.pfPaymentId) throw new Error(`order ${orderId} was not paid: ${row?.status}`);
  return row.pfPaymentId;
}
