import { expect } from "vitest";
import { completeItn } from "../../helpers/payfast.js";
import { sleep } from "./app-process.js";
import { call } from "./http.js";
import { withClient } from "./postgres.js";
import { buyableProducts, type Customer, orderBody, randomCart, registerCustomer } from "./shop.js";

/**
 * Shoppers placing one-line orders and paying each with a signed ITN, while a fault is made: what
 * the fault suite (`npm run test:faults`) loads every fault with, and the ledger it checks after.
 * Every order answered 200 is `confirmed`; every ITN answered 200 is `paid`.
 */
export interface CheckoutLoad {
  confirmed: Set<string>;
  paid: Set<string>;
  /** "create-order 200", "notify 503", "network ECONNREFUSED"...: how often each answer came. */
  statuses: Map<string, number>;
  /** Resolves once `more` orders past those confirmed now are confirmed; throws after `timeoutMs`. */
  moreOrders: (more: number, timeoutMs: number) => Promise<void>;
  /** Ends the shoppers' loops and waits for their last requests. */
  stop: () => Promise<void>;
  summary: () => string;
}

export interface CheckoutLoadOptions {
  /** The shop's base URLs; each shopper moves to the next one after a failed request. */
  urls: () => readonly string[];
  customers: readonly Customer[];
  shoppers: number;
  /** Names the ITNs' pf_payment_id, so two loads on one shop never share one. */
  prefix: string;
}

export async function prepareShoppers(url: string, count: number, prefix: string): Promise<Customer[]> {
  const customers: Customer[] = [];
  for (let index = 0; index < count; index++) customers.push(await registerCustomer(url, prefix));
  return customers;
}

export async function startCheckoutLoad(options: CheckoutLoadOptions): Promise<CheckoutLoad> {
  const first = options.urls()[0];
  if (!first) throw new Error("no shop to load");
  const choices = await buyableProducts(first);
  const confirmed = new Set<string>();
  const paid = new Set<string>();
  const statuses = new Map<string, number>();
  const seen = (kind: string) => statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
  let shopping = true;
  let itns = 0;

  const shopper = async (index: number) => {
    let state = index + 1;
    const random = () => {
      state = (state * 1_664_525 + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    const customer = options.customers[index % options.customers.length] as Customer;
    let turn = index;
    while (shopping) {
      const urls = options.urls();
      const url = urls[turn % urls.length] as string;
      try {
        const created = await call(url, "POST", "/api/create-order", {
          body: orderBody(randomCart(choices, random).slice(0, 1), customer),
          cookie: customer.cookie,
          timeoutMs: 30_000,
        });
        const code = (created.json as { code?: unknown } | null)?.code;
        seen(`create-order ${created.status}${created.status === 200 || typeof code !== "string" ? "" : ` ${code}`}`);
        if (created.status !== 200) {
          turn++;
          await sleep(200);
          continue;
        }
        const { orderId, payfastData } = created.json as { orderId: string; payfastData: Record<string, string> };
        confirmed.add(orderId);
        const itn = completeItn(orderId, payfastData.amount ?? "", `${options.prefix}${++itns}`, customer.email);
        // PayFast sends a notification until it is answered 200: so do we, on whichever shop answers.
        for (let attempt = 0; shopping || attempt < 1; attempt++) {
          const notifyUrl = urls[(turn + attempt) % urls.length] as string;
          const notified = await fetch(`${notifyUrl}/api/payfast/notify`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: itn,
            signal: AbortSignal.timeout(30_000),
          }).catch((error: unknown) => error as Error);
          if (notified instanceof Error) {
            seen(`network ${(notified as { cause?: { code?: string } }).cause?.code ?? notified.name}`);
          } else {
            seen(`notify ${notified.status}`);
            if (notified.status === 200) {
              paid.add(orderId);
              break;
            }
          }
          await sleep(200);
        }
      } catch (error) {
        seen(`network ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}`);
        turn++;
        await sleep(100);
      }
    }
  };
  const running = Array.from({ length: options.shoppers }, (_, index) => shopper(index));

  return {
    confirmed,
    paid,
    statuses,
    moreOrders: async (more, timeoutMs) => {
      const target = confirmed.size + more;
      const from = Date.now();
      while (confirmed.size < target) {
        if (Date.now() - from > timeoutMs) {
          throw new Error(`${confirmed.size} orders, not ${target}, after ${timeoutMs} ms (${tally(statuses)})`);
        }
        await sleep(100);
      }
    },
    stop: async () => {
      shopping = false;
      await Promise.all(running);
    },
    summary: () => tally(statuses),
  };
}

const tally = (statuses: Map<string, number>) =>
  [...statuses.entries()].map(([kind, count]) => `${kind}: ${count}`).join(", ");

/**
 * What a shopper may be answered while the shop meets a fault: never a 500. A 409 OUT_OF_STOCK is
 * an answer too: the load buys until a size runs out.
 */
export function expectNoServerErrors(load: CheckoutLoad): void {
  for (const kind of load.statuses.keys()) {
    expect(kind, load.summary()).toMatch(
      /^(create-order (200|503 SERVICE_UNAVAILABLE|409 OUT_OF_STOCK)|notify (200|503)|network \w+)$/,
    );
  }
}

/** How many answers said "unavailable, try again" (503), orders and notifications together. */
export const unavailableAnswers = (load: CheckoutLoad): number =>
  [...load.statuses.entries()].filter(([kind]) => / 503\b/.test(kind)).reduce((sum, [, count]) => sum + count, 0);

/**
 * The ledger after a fault: every order answered 200 exists, every payment answered 200 is booked
 * (completed, paid by its ITN), and the invoice numbers run 1, 2, 3... without a gap or a repeat.
 */
export async function expectLedgerKept(databaseUrl: string, load: Pick<CheckoutLoad, "confirmed" | "paid">) {
  await withClient(databaseUrl, async (db) => {
    const ids = [...load.confirmed];
    const { rows } = await db.query("select id from orders where id = any($1::uuid[])", [ids]);
    expect(rows.length, "orders answered 200 that exist").toBe(ids.length);
    const { rows: booked } = await db.query(
      "select id from orders where id = any($1::uuid[]) and status = 'completed' and paid_by = 'itn'",
      [[...load.paid]],
    );
    expect(booked.length, "payments answered 200 that are booked").toBe(load.paid.size);
    const { rows: numbers } = await db.query<{ n: number }>(
      "select invoice_number as n from orders where invoice_number is not null order by 1",
    );
    expect(numbers.length, "an invoice for every booked payment").toBeGreaterThanOrEqual(load.paid.size);
    numbers.forEach((row, index) => {
      expect(row.n, "invoice numbers run without a gap or a repeat").toBe(index + 1);
    });
  });
}

/** Polls `url`'s /api/health until it answers 200; answers the milliseconds it took from `since`. */
export async function timeUntilHealthy(url: string, since: number, timeoutMs: number): Promise<number> {
  while (Date.now() - since < timeoutMs) {
    const health = await call(url, "GET", "/api/health", { timeoutMs: 2_000 }).catch(() => ({ status: 0 }));
    if (health.status === 200) return Date.now() - since;
    await sleep(200);
  }
  return Number.POSITIVE_INFINITY;
}
