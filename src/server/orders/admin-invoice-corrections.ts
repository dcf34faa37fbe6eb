import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { uuidParam } from "#domain/schemas/common.js";
import { correctInvoiceInput } from "#domain/schemas/orders.js";
import { recordAudit } from "../platform/audit.js";
import { notFound } from "../platform/errors.js";
import { documentIssuer, issueCorrectedInvoice } from "./issued-documents.js";

/**
 * POST /api/admin/orders/{id}/invoice/corrections: a corrected invoice on the customer's request
 * (VAT Act s20(1B); orders/issued-documents.ts). It writes a tax document, so the admin guard asks
 * for the step-up (moneyMove) as for a refund, and it is audited with what changed.
 */
export const adminInvoiceCorrectionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/orders/:id/invoice/corrections",
    {
      schema: {
        params: uuidParam,
        body: correctInvoiceInput,
        response: { 201: z.object({ number: z.string(), replaces: z.string() }) },
      },
      config: { moneyMove: true },
    },
    async (request, reply) => {
      const { id } = request.params;
      const issued = await issueCorrectedInvoice(
        app.db,
        id,
        documentIssuer(app.config),
        request.body,
        (tx, { number, replaces, before, after }) =>
          recordAudit(tx, request, {
            action: "order.invoice_corrected",
            subject: { type: "order", id },
            before: { invoice: replaces, ...(before as object) },
            after: { invoice: number, reason: request.body.reason, ...(after as object) },
          }),
      );
      if (!issued) throw notFound("This order has no invoice to correct: it is not paid.");
      return reply.status(201).send(issued);
    },
  );
};
