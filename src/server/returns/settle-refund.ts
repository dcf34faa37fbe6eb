import { eq, sql } from "drizzle-orm";
import { returnReferenceText } from "#domain/returns.js";
import type { Transaction } from "../platform/db/client.js";
import { returnRequestEvents, returnRequests, users } from "../platform/db/schema.js";
import { auditReturnStep } from "./audit.js";
import { enqueueReturnUpdate } from "./email.js";

/**
 * A refund that settles a request has completed (payments/refunds.ts `completeRefund`, in its
 * transaction, with the order locked): the request becomes `refunded`, whoever completed the
 * refund (the admin's own call, or the settling of a refund a crash left requested). Money is the
 * truth: a request declined meanwhile is refunded all the same.
 */
export async function settleReturnRefund(
  tx: Transaction,
  refund: { id: string; returnRequestId: string; amountCents: number; requestedBy: string | null },
): Promise<void> {
  const [request] = await tx
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.id, refund.returnRequestId))
    .for("update");
  if (!request || request.status === "refunded") return;
  const [admin] = refund.requestedBy
    ? await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, refund.requestedBy))
    : [];
  await tx
    .update(returnRequests)
    .set({ status: "refunded", refundId: refund.id, closedAt: sql`now()`, decidedAt: request.decidedAt ?? sql`now()` })
    .where(eq(returnRequests.id, request.id));
  await tx.insert(returnRequestEvents).values({
    requestId: request.id,
    status: "refunded",
    note: null,
    actorId: admin?.id ?? null,
    actorUsername: admin?.username ?? null,
  });
  await auditReturnStep(tx, null, {
    action: "return.refunded",
    orderId: request.orderId,
    actor: admin ?? null,
    before: { status: request.status },
    after: { status: "refunded", reference: returnReferenceText(request.number), amountCents: refund.amountCents },
  });
  await enqueueReturnUpdate(tx, request.id, "refunded", { amountCents: refund.amountCents });
}
