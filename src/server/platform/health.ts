import { sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { readJournal } from "./backup/journal.js";
import { migrationLevel } from "./backup/session.js";
import { buildInfo } from "./build-info.js";
import type { EmbeddedState } from "./db/embedded-watch.js";

type Check = "ok" | "down" | "behind";

/**
 * GET /api/health: the database answers `select 1`, with the release's version and revision; 503 if not.
 * GET /api/health/live: the process answers (a container platform restarts it when not); 503 while
 * the embedded PostgreSQL it owns is gone and a restart of it has failed (the process exits 30 s
 * after the server died if it stays so: src/server/platform/db/embedded-watch.ts).
 * GET /api/health/ready: it can serve shoppers: the database answers and its migrations are this
 * release's; otherwise 503 naming the check that failed (a load balancer sends it no shoppers
 * meanwhile). The jobs engine is not a check: shoppers are served without it, and an instance
 * whose engine is down is the owner's alert instead (alerts/instance-watch.ts).
 */
export const healthRoutes: FastifyPluginAsync<{ embeddedState: () => EmbeddedState }> = async (
  app,
  { embeddedState },
) => {
  const expectedMigrations = (await readJournal()).length;

  app.get("/health", async (_request, reply) => {
    try {
      await app.db.execute(sql`select 1`);
      return { status: "ok", database: "up", ...buildInfo() };
    } catch (error) {
      app.log.error({ err: error }, "health check: database down");
      return reply.status(503).send({
        message: "The database is unavailable",
        code: "SERVICE_UNAVAILABLE",
        database: "down",
        ...buildInfo(),
      });
    }
  });

  app.get("/health/live", async (_request, reply) => {
    if (embeddedState() !== "failing") return { status: "ok" };
    return reply.status(503).send({
      message: "The shop's embedded PostgreSQL has stopped and could not be started again yet",
      code: "SERVICE_UNAVAILABLE",
    });
  });

  app.get("/health/ready", async (_request, reply) => {
    const checks: { database: Check; migrations: Check } = { database: "down", migrations: "down" };
    const client = await app.pool.connect().catch(() => null);
    if (client) {
      try {
        await client.query("select 1");
        checks.database = "ok";
        const { count } = await migrationLevel(client);
        checks.migrations = count >= expectedMigrations ? "ok" : "behind";
      } catch (error) {
        app.log.warn({ err: error }, "readiness check: database query failed");
      } finally {
        client.release();
      }
    }
    const failed = Object.entries(checks).filter(([, state]) => state !== "ok");
    if (failed.length === 0) return { status: "ok", checks };
    const why = failed.map(([name, state]) => `${name} ${state}`).join(", ");
    return reply.status(503).send({ message: `The shop is not ready: ${why}`, code: "SERVICE_UNAVAILABLE", checks });
  });
};
