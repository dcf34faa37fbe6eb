import { createHash, randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { centsToDecimal, formatRand, parseRandToCents } from "../../domain/money.js";
import type { Config } from "../config.js";
import { payfastEmulatorNotifications } from "../db/schema.js";
import { renderPaymentPage, renderRejectedPage } from "./emulator-page.js";
import { checkoutSignature, parseItn, sameSignature, signItnFields } from "./signature.js";

/**
 * A local stand-in for PayFast (mounted at /payfast-emulator in local mode only), so a whole
 * purchase runs on one machine with no account:
 * - POST /eng/process checks the checkout form like PayFast and shows a payment page;
 * - POST /eng/complete sends notify_url a signed COMPLETE ITN, then redirects to return_url;
 * - POST /eng/cancel redirects to cancel_url;
 * - POST /eng/query/validate answers VALID only for ITNs this emulator sent.
 */
export const payfastEmulator: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, body);
  });
  const { config, db } = app;
  const prefix = app.prefix;

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(body);

  app.post("/eng/process", async (request, reply) => {
    const form = readForm(request.body);
    const problem = checkoutProblem(form.data, config);
    if (problem) {
      request.log.warn({ problem }, "PayFast emulator: checkout form rejected");
      return html(reply, 400, renderRejectedPage(problem, `${config.publicUrl}/`));
    }
    const { data } = form;
    return html(
      reply,
      200,
      renderPaymentPage({
        merchantName: config.shop.name,
        amountText: formatRand(parseRandToCents(data.amount ?? "") ?? 0),
        itemName: data.item_name ?? "",
        itemDescription: data.item_description ?? "",
        email: data.email_address ?? "",
        fields: form.fields,
        completeAction: `${prefix}/eng/complete`,
        cancelAction: `${prefix}/eng/cancel`,
      }),
    );
  });

  app.post("/eng/complete", async (request, reply) => {
    const { data } = readForm(request.body);
    const problem = checkoutProblem(data, config);
    if (problem) return html(reply, 400, renderRejectedPage(problem, `${config.publicUrl}/`));

    const notifyUrl = data.notify_url ? shopUrl(data.notify_url, config) : null;
    if (notifyUrl) {
      const body = buildCompleteItn(data, config);
      const { paramString } = parseItn(body);
      await db
        .insert(payfastEmulatorNotifications)
        .values({ paramHash: sha256(paramString) })
        .onConflictDoNothing();
      // PayFast sends the ITN before it redirects the buyer, so the order is paid on return.
      try {
        const response = await fetch(notifyUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        if (!response.ok) {
          request.log.warn(
            { status: response.status, answer: (await response.text()).slice(0, 200) },
            "PayFast emulator: notify_url did not accept the ITN",
          );
        }
      } catch (error) {
        request.log.warn({ err: error }, "PayFast emulator: could not reach notify_url");
      }
    }
    return reply.redirect((data.return_url && shopUrl(data.return_url, config)) || `${config.publicUrl}/`, 303);
  });

  app.post("/eng/cancel", async (request, reply) => {
    const { data } = readForm(request.body);
    const problem = checkoutProblem(data, config);
    if (problem) return html(reply, 400, renderRejectedPage(problem, `${config.publicUrl}/`));
    return reply.redirect((data.cancel_url && shopUrl(data.cancel_url, config)) || `${config.publicUrl}/`, 303);
  });

  app.post("/eng/query/validate", async (request, reply) => {
    const raw = typeof request.body === "string" ? request.body : "";
    const { paramString } = parseItn(raw);
    const [sent] = paramString
      ? await db
          .select({ paramHash: payfastEmulatorNotifications.paramHash })
          .from(payfastEmulatorNotifications)
          .where(eq(payfastEmulatorNotifications.paramHash, sha256(paramString)))
      : [];
    return reply.type("text/plain; charset=utf-8").send(sent ? "VALID" : "INVALID");
  });
};

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function readForm(body: unknown): { fields: [string, string][]; data: Record<string, string> } {
  const fields: [string, string][] = [];
  const data: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(typeof body === "string" ? body : "")) {
    fields.push([key, value]);
    if (!(key in data)) data[key] = value;
  }
  return { fields, data };
}

/** Why PayFast would refuse this checkout form, or null. The URLs must point back at this shop. */
function checkoutProblem(data: Record<string, string>, config: Config): string | null {
  if (data.merchant_id !== config.payfast.merchantId || data.merchant_key !== config.payfast.merchantKey) {
    return "The merchant ID or merchant key does not match this merchant's account.";
  }
  if (!data.signature || !sameSignature(checkoutSignature(data, config.payfast.passphrase), data.signature)) {
    return "Generated signature does not match submitted signature.";
  }
  const cents = parseRandToCents(data.amount ?? "");
  if (cents === null || cents <= 0) return "The amount is missing or is not a valid amount.";
  if (!data.item_name?.trim()) return "The item name is required.";
  for (const key of ["return_url", "cancel_url", "notify_url"] as const) {
    const url = data[key];
    if (url && !shopUrl(url, config)) return `The ${key} must point at this shop (${config.publicUrl}).`;
  }
  return null;
}

/**
 * The URL, normalised, when it points at this shop (so the emulator never posts or redirects
 * anywhere else); null otherwise. Normalising also drops line breaks, which a header must not hold.
 */
function shopUrl(text: string, config: Config): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  const shop = new URL(`${config.publicUrl}/`);
  if (url.origin !== shop.origin || !url.pathname.startsWith(shop.pathname) || url.username || url.password) {
    return null;
  }
  return url.href;
}

/** A COMPLETE ITN with the fields, in the order, PayFast sends them (PAYFAST.md), signed. */
function buildCompleteItn(data: Record<string, string>, config: Config): string {
  const grossCents = parseRandToCents(data.amount ?? "") ?? 0;
  const feeCents = -Math.round(grossCents * 0.023);
  const field = (key: string): [string, string] => [key, data[key]?.trim() ?? ""];
  return signItnFields(
    [
      field("m_payment_id"),
      ["pf_payment_id", String(randomInt(1_000_000, 10_000_000))],
      ["payment_status", "COMPLETE"],
      field("item_name"),
      field("item_description"),
      ["amount_gross", centsToDecimal(grossCents)],
      ["amount_fee", centsToDecimal(feeCents)],
      ["amount_net", centsToDecimal(grossCents + feeCents)],
      ...[1, 2, 3, 4, 5].map((n) => field(`custom_str${n}`)),
      ...[1, 2, 3, 4, 5].map((n) => field(`custom_int${n}`)),
      field("name_first"),
      field("name_last"),
      field("email_address"),
      ["merchant_id", config.payfast.merchantId],
    ],
    config.payfast.passphrase,
  );
}
