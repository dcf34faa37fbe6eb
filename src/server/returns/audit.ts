import type { FastifyRequest } from "fastify";
import type { AuditAction } from "../platform/audit.js";
import type { Transaction } from "../platform/db/client.js";
import { auditLog } from "../platform/db/schema.js";

/**
 * An audit record of a step of a request, on its order (the order's activity shows it). Written
 * in the step's transaction; a step the shop takes by itself (a payment it cannot fill) or that a
 * refund's completion takes has no request, and names the admin who asked for the refund, or nobody.
 */
export async function auditReturnStep(
  tx: Transaction,
  request: FastifyRequest | null,
  entry: {
    action: AuditAction;
    orderId: string;
    before?: Record<string, unknown> | null;
    after: Record<string, unknown>;
    actor?: { id: string; username: string } | null;
  },
): Promise<void> {
  const who = entry.actor !== undefined ? entry.actor : (request?.user ?? null);
  await tx.insert(auditLog).values({
    actorId: who?.id ?? null,
    actorUsername: who?.username ?? null,
    address: request?.ip ?? null,
    requestId: request?.id ?? null,
    action: entry.action,
    subjectType: "order",
    subjectId: entry.orderId,
    before: entry.before ?? null,
    after: entry.after,
  });
}
