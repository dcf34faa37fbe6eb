import { readFile, writeFile } from "node:fs/promises";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODE_MEANINGS } from "#domain/error-code-meanings.js";
import { errorBody } from "#domain/schemas/common.js";
import { type App, buildApp } from "#server/app.js";
import { loadConfig } from "#server/platform/config.js";
import { createDatabase } from "#server/platform/db/client.js";
import { buildTestApp, checkErrorAnswers, type TestApp } from "../helpers/app.js";

const DOC = new URL("../../docs/api-errors.md", import.meta.url);
const START = "<!-- error codes: start (generated) -->";
const END = "<!-- error codes: end -->";

function codesTable(): string {
  const rows = Object.entries(ERROR_CODE_MEANINGS).map(([code, meaning]) => `| \`${code}\` | ${meaning} |`);
  return ["| Code | Meaning (status) |", "| --- | --- |", ...rows].join("\n");
}

describe("docs/api-errors.md", () => {
  it("lists every error code with its meaning, as src/domain/error-code-meanings.ts says", async () => {
    const doc = await readFile(DOC, "utf8");
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, `${START} in docs/api-errors.md`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const generated = `${START}\n${codesTable()}\n${END}`;
    if (process.env.UPDATE_API_ERRORS_DOC === "1") {
      await writeFile(DOC, doc.slice(0, start) + generated + doc.slice(end + END.length));
      return;
    }
    expect(
      doc.slice(start, end + END.length),
      "docs/api-errors.md is out of date: UPDATE_API_ERRORS_DOC=1 npx vitest run tests/api/error-codes.test.ts",
    ).toBe(generated);
  });
});

describe("error answers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, contentType = "application/json") =>
    t.app.inject({ method: "POST", url, payload, headers: { "content-type": contentType } });

  it.each([
    ["a body that is not JSON", () => post("/api/auth/login", "{not json"), 400, "MALFORMED_BODY"],
    ["an empty JSON body", () => post("/api/auth/login", ""), 400, "MALFORMED_BODY"],
    [
      "a body that is not sent as JSON",
      () => post("/api/auth/login", "<login/>", "application/xml"),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "a body over the limit",
      () => post("/api/auth/login", JSON.stringify({ username: "x".repeat(200_000) })),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "a field that is not valid",
      () => post("/api/auth/login", JSON.stringify({ username: "someone" })),
      400,
      "VALIDATION_FAILED",
    ],
    ["an unknown API route", () => t.app.inject({ method: "GET", url: "/api/no-such-route" }), 404, "NOT_FOUND"],
    [
      "a URL that does not decode",
      () => t.app.inject({ method: "GET", url: "/api/users/%E0%A4%A/orders" }),
      400,
      "VALIDATION_FAILED",
    ],
    ["an unknown API route, written to", () => post("/api/no-such-route", "{}"), 404, "NOT_FOUND"],
  ] as const)("answers %s with its code", async (_case, send, status, code) => {
    const response = await send();
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json();
    expect(body).toEqual({ message: expect.any(String), code });
    expect(errorBody.parse(body)).toEqual(body);
  });
});

describe("the tests' own check", () => {
  it("fails a test whose app answers an error without a valid code", async () => {
    const app = Fastify();
    app.get("/api/bare", (_request, reply) => reply.status(400).send({ message: "no code" }));
    app.get("/api/made-up", (_request, reply) => reply.status(400).send({ message: "?", code: "MADE_UP" }));
    app.get("/api/coded", (_request, reply) => reply.status(400).send({ message: "ok", code: "VALIDATION_FAILED" }));
    checkErrorAnswers(app as unknown as App);
    await expect(app.inject({ method: "GET", url: "/api/bare" })).rejects.toThrow(/without a valid error code/);
    await expect(app.inject({ method: "GET", url: "/api/made-up" })).rejects.toThrow(/without a valid error code/);
    expect((await app.inject({ method: "GET", url: "/api/coded" })).statusCode).toBe(400);
    await app.close();
  });
});

describe("error answers while the database is down", () => {
  it("answers 503 SERVICE_UNAVAILABLE, and /api/health says the database is down", async () => {
    const config = loadConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      PUBLIC_URL: "http://localhost:3000",
      SERVE_STATIC: "false",
    });
    // Nothing listens on port 1: every query fails to connect.
    const databaseUrl = "postgres://shop@127.0.0.1:1/shop";
    const { db, pool } = createDatabase(databaseUrl, 1);
    const app = await buildApp({ config, db, pool, databaseUrl });
    checkErrorAnswers(app);
    await app.ready();
    try {
      const health = await app.inject({ method: "GET", url: "/api/health" });
      expect(health.statusCode).toBe(503);
      // With the release that answers (docs/operations.md), as every health answer carries it.
      expect(health.json()).toEqual({
        message: expect.any(String),
        code: "SERVICE_UNAVAILABLE",
        database: "down",
        version: expect.any(String),
        revision: expect.any(String),
      });
      const login = await app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: "someone", password: "a-password" },
      });
      expect(login.statusCode).toBe(503);
      expect(login.headers["retry-after"]).toBe("5");
      expect(login.json()).toEqual({ message: expect.any(String), code: "SERVICE_UNAVAILABLE" });
    } finally {
      await app.close();
      await pool.end();
    }
  });
});
