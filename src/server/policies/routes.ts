import type { FastifyPluginAsync } from "fastify";
import { isPolicyKind } from "#domain/policies.js";
import { notFound } from "../platform/errors.js";
import { legalPage } from "./legal.js";

/** A version number as it appears in an address: 1 to 999999999, no leading zero. */
const VERSION = /^[1-9]\d{0,8}$/;

/**
 * GET /api/legal (the Legal page's facts), GET /api/policies/{kind} (the latest version) and
 * GET /api/policies/{kind}/versions/{n} (any version ever published). Public and the same for
 * everyone: a shared cache may keep them for a while (a new version comes only with a restart).
 */
export const policyRoutes: FastifyPluginAsync = async (app) => {
  const legal = legalPage(app.config);
  app.addHook("onSend", async (_request, reply) => {
    if (reply.statusCode === 200) reply.header("cache-control", "public, max-age=300");
  });

  app.get("/legal", async () => legal);

  app.get<{ Params: { kind: string } }>("/policies/:kind", async (request) => {
    const { kind } = request.params;
    const found = isPolicyKind(kind) ? await app.policies.version(kind, null) : null;
    if (!found) throw notFound(`No policy called "${kind}"`);
    return found;
  });

  app.get<{ Params: { kind: string; version: string } }>("/policies/:kind/versions/:version", async (request) => {
    const { kind, version } = request.params;
    if (!isPolicyKind(kind)) throw notFound(`No policy called "${kind}"`);
    const found = VERSION.test(version) ? await app.policies.version(kind, Number(version)) : null;
    if (!found) throw notFound(`The ${kind} policy has no version ${version}`);
    return found;
  });
};
