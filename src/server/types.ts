import type pg from "pg";
import type { SessionUser } from "./auth/guards.js";
import type { CatalogCache } from "./catalog/cache.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Database;
    pool: pg.Pool;
    catalogCache: CatalogCache;
  }
  interface FastifyRequest {
    /** The user of the request's session, or null; set by the session plugin from the cookie only. */
    user: SessionUser | null;
  }
}
