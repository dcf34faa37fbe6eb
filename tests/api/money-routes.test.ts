import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saDay } from "#domain/sa-calendar.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { ageStepUp, codeAt, enrolSecondFactor } from "../helpers/two-factor.js";
import { confirmWithPassword, type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Issue 39: every admin route that moves money or writes a tax document asks for a fresh step-up.
 * The routes are read from the app itself (every route and its config), so a new admin route that
 * changes something fails here until it is named below: as a money move (then it must carry
 * `config.moneyMove`, which the admin guard enforces) or as something else, with the reason.
 */

interface RouteRow {
  method: string;
  url: string;
  moneyMove?: unknown;
}

/**
 * Every route of the app that changes something, from Fastify's own route table, and whether the
 * admin guard gave it the money-move step-up (admin/routes.ts: a preHandler named stepUpForMoneyMove).
 */
function writeRoutes(t: TestApp): RouteRow[] {
  return ["POST", "PUT", "PATCH", "DELETE"].flatMap((method) => {
    const printed = t.app.printRoutes({ method, commonPrefix: false, includeHooks: true });
    // Each route is a line of the tree ("├── /path (POST)"), its hooks the "• (hook) [...]" lines under it.
    const rows: RouteRow[] = [];
    const path: string[] = [];
    for (const line of printed.split("\n")) {
      const node = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)( \([A-Z, ]+\))?/.exec(line);
      if (node) {
        const depth = (node[1] ?? "").length / 4;
        path.length = depth;
        path.push(node[2] as string);
        if (node[3]) rows.push({ method, url: path.join(""), moneyMove: false });
        continue;
      }
      const last = rows.at(-1);
      if (last && line.includes("(preHandler)") && line.includes("stepUpForMoneyMove")) last.moneyMove = true;
    }
    return rows;
  });
}

const unknownId = randomUUID();

/** The money moves and tax documents, each with a body that passes validation (the ids name nothing). */
const MONEY_MOVES: Record<string, { url: string; body?: Record<string, unknown> }> = {
  "POST /api/admin/orders/:id/refund": {
    url: `/api/admin/orders/${unknownId}/refund`,
    body: { amountCents: 100, reason: "Damaged", restock: false },
  },
  "POST /api/admin/orders/:id/refunds/record": {
    url: `/api/admin/orders/${unknownId}/refunds/record`,
    body: {
      amountCents: 100,
      reason: "Refunded in PayFast's dashboard",
      restock: false,
      refundedOn: saDay(),
      payfastReference: "PF-1",
    },
  },
  "POST /api/admin/returns/:id/refund": { url: `/api/admin/returns/${unknownId}/refund`, body: { amountCents: 100 } },
  // A corrected invoice (VAT Act s20(1B)): a tax document with a new number.
  "POST /api/admin/orders/:id/invoice/corrections": {
    url: `/api/admin/orders/${unknownId}/invoice/corrections`,
    body: { reason: "The customer's company name" },
  },
  "PATCH /api/admin/orders/:id/confirm-payment": { url: `/api/admin/orders/${unknownId}/confirm-payment` },
  // Mark as Paid: a payment booked by hand and a tax invoice (Mark as Shipped is not stepped up).
  "PATCH /api/admin/orders/:id/status": { url: `/api/admin/orders/${unknownId}/status`, body: { status: "completed" } },
};

/** Every other admin route that changes something, and why it is not a money move. */
const NOT_MONEY: Record<string, string> = {
  "POST /api/admin/orders/:id/cancel": "an unpaid order: no money has moved, no invoice exists",
  "POST /api/admin/orders/:id/check-payfast": "books only a payment PayFast itself shows, as its notification would",
  "POST /api/admin/orders/:id/delivered": "records a delivery day",
  "POST /api/admin/orders/:id/waybill":
    "books a parcel with the courier (the shop's account is billed monthly); no customer money or tax document",
  "POST /api/admin/orders/waybills": "the same booking for today's paid orders",
  "POST /api/admin/delivery/boxes": "a box size orders are packed into; no money moves",
  "PUT /api/admin/delivery/boxes/:code": "a box size's measures",
  "DELETE /api/admin/delivery/boxes/:code": "a box size no longer used for packing",
  "POST /api/admin/payments/attention/:id/resolve":
    "marks a flagged payment or a parcel's problem as looked at; books nothing",
  "POST /api/admin/returns/:id/accept": "a decision; the refund is its own step",
  "POST /api/admin/returns/:id/decline": "a decision",
  "POST /api/admin/returns/:id/receive": "goods back on the shelf",
  "POST /api/admin/returns/:id/exchange": "goods for goods",
  "POST /api/admin/returns/:id/resolve": "a complaint's outcome in words",
  "POST /api/admin/products": "the catalogue",
  "PUT /api/admin/products/:id": "the catalogue",
  "DELETE /api/admin/products/:id": "the catalogue",
  "POST /api/admin/categories": "the catalogue",
  "PUT /api/admin/categories/:id": "the catalogue",
  "DELETE /api/admin/categories/:id": "the catalogue",
  "POST /api/admin/media": "a photo",
  "POST /api/admin/promo-codes": "a discount on future orders; no money moves and no document is written",
  "PUT /api/admin/promo-codes/:id": "a discount on future orders (or ending one)",
  "PATCH /api/admin/users/:id": "admin rights: stepped up in its handler when granting",
  "POST /api/admin/users/:id/disable": "an account: stepped up in its handler when it is an admin's",
  "POST /api/admin/users/:id/enable": "an account",
  "POST /api/admin/users/:id/second-factor/reset": "stepped up in its handler (another admin's protection)",
  "POST /api/admin/emails/:id/resend": "sends a message again",
  "PUT /api/admin/launch-checklist/:itemId": "the owner's own tick on a duty outside the software",
  "POST /api/admin/plans/:planId/pause": "stops future charges of a plan; takes no money and refunds none",
  "POST /api/admin/plans/:planId/cancel": "ends a plan and its card token; takes no money and refunds none",
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_STEP_UP_MINUTES: "10" });
});
afterAll(() => t.close());

describe("admin routes that move money or write a tax document", () => {
  it("are each marked for the step-up, and every other admin write is named as not one", () => {
    const writes = writeRoutes(t).filter((route) => route.url.startsWith("/api/admin"));
    const key = (route: RouteRow) => `${route.method} ${route.url}`;
    const unmarked = writes.filter((route) => key(route) in MONEY_MOVES && !route.moneyMove).map(key);
    expect(unmarked, "money moves without config.moneyMove").toEqual([]);
    const marked = writes.filter((route) => route.moneyMove).map(key);
    expect(marked.sort()).toEqual(Object.keys(MONEY_MOVES).sort());
    const unclassified = writes.map(key).filter((name) => !(name in MONEY_MOVES) && !(name in NOT_MONEY));
    expect(unclassified, "new admin routes: a money move (config.moneyMove) or not (NOT_MONEY, with why)").toEqual([]);
    const gone = Object.keys(NOT_MONEY).filter((name) => !writes.some((route) => key(route) === name));
    expect(gone, "NOT_MONEY names routes the app no longer has").toEqual([]);
  });

  const call = (name: string, cookie: string) => {
    const route = MONEY_MOVES[name];
    if (!route) throw new Error(name);
    return t.app.inject({
      method: name.split(" ")[0] as "POST" | "PATCH",
      url: route.url,
      headers: { cookie },
      ...(route.body ? { payload: route.body } : {}),
    });
  };

  it("refuses each without a fresh code (403 STEP_UP_REQUIRED), and lets it through once the admin gives one", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const { secret } = await enrolSecondFactor(t, admin.cookie);
    await ageStepUp(t, admin.user.id);
    for (const name of Object.keys(MONEY_MOVES)) {
      const refused = await call(name, admin.cookie);
      expect(refused.statusCode, name).toBe(403);
      expect(refused.json().code, name).toBe("STEP_UP_REQUIRED");
    }
    const verified = await t.app.inject({
      method: "POST",
      url: "/api/auth/2fa/verify",
      headers: { cookie: admin.cookie },
      payload: { code: await codeAt(secret, 1) },
    });
    expect(verified.statusCode).toBe(204);
    // Through the guard: each answers for itself (nothing by that id).
    for (const name of Object.keys(MONEY_MOVES)) expect((await call(name, admin.cookie)).statusCode, name).toBe(404);
  });

  it("asks an admin with no second factor (ADMIN_2FA=optional) for their password instead", async () => {
    const admin: LoggedInUser = await registerAndLogin(t, { admin: true, stepUp: false });
    for (const name of Object.keys(MONEY_MOVES)) {
      const refused = await call(name, admin.cookie);
      expect(refused.statusCode, name).toBe(403);
      expect(refused.json(), name).toEqual({
        code: "STEP_UP_PASSWORD_REQUIRED",
        message: "Enter your password to confirm this: it moves money or customers' data.",
      });
    }
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/auth/step-up/password",
      headers: { cookie: admin.cookie },
      payload: { password: "not-the-password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("CURRENT_PASSWORD_WRONG");
    expect((await call("POST /api/admin/returns/:id/refund", admin.cookie)).statusCode).toBe(403);

    const fresh = () => t.app.inject({ method: "GET", url: "/api/auth/2fa/fresh", headers: { cookie: admin.cookie } });
    expect((await fresh()).json()).toEqual({ fresh: false, confirmWith: "password" });
    await confirmWithPassword(t, admin.cookie, admin.password);
    expect((await fresh()).json()).toEqual({ fresh: true, confirmWith: "password" });
    for (const name of Object.keys(MONEY_MOVES)) expect((await call(name, admin.cookie)).statusCode, name).toBe(404);
    // The window runs out as a code's does.
    await ageStepUp(t, admin.user.id);
    expect((await call("POST /api/admin/orders/:id/refund", admin.cookie)).json().code).toBe(
      "STEP_UP_PASSWORD_REQUIRED",
    );
  });

  it("never takes a password from an admin who has a second factor", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    await enrolSecondFactor(t, admin.cookie);
    const byPassword = await t.app.inject({
      method: "POST",
      url: "/api/auth/step-up/password",
      headers: { cookie: admin.cookie },
      payload: { password: admin.password },
    });
    expect(byPassword.statusCode).toBe(400);
    await ageStepUp(t, admin.user.id);
    expect((await call("POST /api/admin/orders/:id/refund", admin.cookie)).json().code).toBe("STEP_UP_REQUIRED");
  });

  it("leaves Mark as Shipped without a step-up", async () => {
    const admin = await registerAndLogin(t, { admin: true, stepUp: false });
    const shipped = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${unknownId}/status`,
      headers: { cookie: admin.cookie },
      payload: { status: "processed" },
    });
    expect(shipped.statusCode).toBe(404);
  });
});
