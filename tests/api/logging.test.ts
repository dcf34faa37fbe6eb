import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type App, buildApp } from "#server/app.js";
import { loadConfig } from "#server/platform/config.js";
import { createDatabase } from "#server/platform/db/client.js";
import { lazyChildLogger } from "#server/platform/request-logging.js";
import { checkErrorAnswers, createTestDatabase } from "../helpers/app.js";

type Line = Record<string, unknown>;

/** The app as main.ts builds it, logging JSON lines at `level` into an array. */
async function appLoggingAt(level: string) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const databaseUrl = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: level,
    PUBLIC_URL: "http://localhost:3000",
    SERVE_STATIC: "false",
  });
  const { db, pool } = createDatabase(databaseUrl, 3);
  const app = await buildApp({ config, db, pool, databaseUrl, logger: { level, stream } });
  checkErrorAnswers(app);
  await app.ready();
  return {
    app,
    lines,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

const requestLines = (lines: Line[]) => lines.filter((line) => line.reqId !== undefined);

describe("at info level (the default)", () => {
  let shop: { app: App; lines: Line[]; close: () => Promise<void> };
  beforeAll(async () => {
    shop = await appLoggingAt("info");
  });
  afterAll(() => shop.close());
  beforeEach(() => {
    shop.lines.length = 0;
  });

  it("logs a write as one line carrying the request id the answer names", async () => {
    const response = await shop.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: "nobody-here", password: "wrong-password" },
    });
    expect(response.statusCode).toBe(401);
    const lines = requestLines(shop.lines).filter((line) => line.msg === "request completed");
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: response.headers["x-request-id"],
        method: "POST",
        url: "/api/auth/login",
        statusCode: 401,
        responseTime: expect.any(Number),
      }),
    ]);
    expect(shop.lines.some((line) => line.msg === "incoming request")).toBe(false);
  });

  it("logs a failed read, and keeps a read that went well out of the log", async () => {
    const good = await shop.app.inject({ method: "GET", url: "/api/products" });
    expect(good.statusCode).toBe(200);
    expect(requestLines(shop.lines)).toEqual([]);

    const missing = await shop.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(missing.statusCode).toBe(404);
    expect(requestLines(shop.lines)).toEqual([
      expect.objectContaining({ reqId: missing.headers["x-request-id"], statusCode: 404, msg: "request completed" }),
    ]);
  });

  it("keeps the caller's request id only as its claim, beside an id of its own", async () => {
    const response = await shop.app.inject({
      method: "GET",
      url: "/api/no-such-thing",
      headers: { "x-request-id": "support-ticket-42" },
    });
    expect(response.headers["x-request-id"]).not.toBe("support-ticket-42");
    expect(requestLines(shop.lines)).toEqual([
      expect.objectContaining({ reqId: response.headers["x-request-id"], clientRequestId: "support-ticket-42" }),
    ]);
  });
});

describe("a failed query", () => {
  it("is logged without the values it was sent: no password hash, no e-mail, no params", async () => {
    const shop = await appLoggingAt("info");
    try {
      // Every new user breaks this rule, so a register reaches the insert and PostgreSQL refuses
      // the row: its error carries the row's values in Drizzle's "params:" and PostgreSQL's detail.
      await shop.app.pool.query("alter table users add constraint logging_test_refuses check (false) not valid");
      const email = "lindiwe.private@example.co.za";
      const response = await shop.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: {
          username: "lindiwe_logged",
          email,
          password: "a-secret-password",
          fullName: "Lindiwe Private",
          phone: "082 555 0199",
          address: "7 Protea Road",
          city: "Durban",
          zipCode: "4001",
        },
      });
      expect(response.json()).toEqual({ message: expect.any(String), code: "DATA_REFUSED" });

      const logged = shop.lines.find((line) => line.msg === "database refused the request's data");
      expect(logged?.err).toMatchObject({
        type: "DrizzleQueryError",
        code: "23514",
        constraint: "logging_test_refuses",
        table: "users",
      });
      const text = JSON.stringify(shop.lines);
      expect(text).not.toContain("$argon2");
      expect(text).not.toContain(email);
      expect(text).not.toContain("Lindiwe");
      expect(text).not.toContain("082 555 0199");
      expect(text).not.toContain("params:");
      expect(text).not.toContain("Failing row");
    } finally {
      await shop.close();
    }
  });
});

describe("request ids", () => {
  it("gives each request an id of its own, and replaces one that is unsafe to log", async () => {
    const shop = await appLoggingAt("info");
    try {
      const ids = new Set<unknown>();
      for (let index = 0; index < 20; index++) {
        const response = await shop.app.inject({ method: "GET", url: "/api/health" });
        ids.add(response.headers["x-request-id"]);
      }
      expect(ids.size).toBe(20);
      const unsafe = await shop.app.inject({
        method: "GET",
        url: "/api/health",
        headers: { "x-request-id": "a\nforged log line" },
      });
      expect(unsafe.headers["x-request-id"]).toMatch(/^[\w-]{1,64}$/);
      expect(ids.has(unsafe.headers["x-request-id"])).toBe(false);
    } finally {
      await shop.close();
    }
  });
});

describe("secrets in addresses", () => {
  it("logs the reset page and a reset link's API call without the token, even at debug level", async () => {
    const shop = await appLoggingAt("debug");
    try {
      const token = "Zq3u9-reset-token-that-must-not-be-logged-0123456";
      await shop.app.inject({ method: "GET", url: `/reset-password?token=${token}` });
      await shop.app.inject({ method: "GET", url: `/reset-password?lang=en&token=${token}#top` });
      await shop.app.inject({ method: "GET", url: `/api/no-such-thing?token=${token}` });
      const text = JSON.stringify(shop.lines);
      expect(text).not.toContain(token);
      expect(text).toContain("/reset-password?token=[redacted]");
    } finally {
      await shop.close();
    }
  });
});

describe("at debug level", () => {
  it("logs every request as it is taken and as it is answered, under one request id", async () => {
    const shop = await appLoggingAt("debug");
    try {
      const response = await shop.app.inject({ method: "GET", url: "/api/products" });
      expect(response.statusCode).toBe(200);
      const id = response.headers["x-request-id"];
      expect(requestLines(shop.lines).map((line) => [line.msg, line.reqId, line.level])).toEqual([
        ["incoming request", id, 20],
        ["request completed", id, 20],
      ]);
    } finally {
      await shop.close();
    }
  });
});

describe("a request's logger", () => {
  it("logs with its bindings at the levels its parent allows, or at a route's own level", () => {
    const lines: Line[] = [];
    const parent = pino({ level: "info" }, { write: (text: string) => lines.push(JSON.parse(text)) });
    const make = lazyChildLogger.bind(undefined as never);
    const plain = make(parent, { reqId: "plain" }, {});
    plain.debug("hidden");
    plain.info({ orderId: "o-1" }, "shown");
    const chatty = make(parent, { reqId: "chatty" }, { level: "debug" });
    chatty.debug("shown at the route's level");
    expect(lines.map((line) => [line.reqId, line.msg, line.orderId])).toEqual([
      ["plain", "shown", "o-1"],
      ["chatty", "shown at the route's level", undefined],
    ]);
  });
});
