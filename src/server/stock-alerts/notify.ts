import { sql } from "drizzle-orm";
import { STOCK_ALERT_UNSUBSCRIBE_DAYS } from "#domain/stock-alerts.js";
import { enqueueEmail } from "../mail/outbox.js";
import type { Transaction } from "../platform/db/client.js";
import { signStockAlertLink } from "./tokens.js";

/**
 * Every confirmed alert on a size that can be sold again (quantity above what unpaid orders hold)
 * gets its one e-mail in the outbox, and ends; a size still sold out sends nothing. With a product,
 * in the transaction that changed its stock (the admin's product form); with `null`, for every
 * product (the back-in-stock sweep, for units that came back otherwise: a released hold, a refund
 * with restock, a received return). The delete takes the alerts' rows, so two restocks at once send
 * each alert once (the second finds them gone). Answers how many were sent.
 */
export async function sendBackInStock(
  tx: Transaction,
  productId: string | null,
  shop: { publicUrl: string },
  signingKey: Buffer,
): Promise<number> {
  const ofProduct = productId === null ? sql`true` : sql`alert.product_id = ${productId}`;
  const { rows } = await tx.execute<{ id: string; email: string; size: string; name: string; slug: string }>(sql`
    delete from stock_alerts as alert
    using product_stock as stock, products as product
    where ${ofProduct}
      and alert.confirmed_at is not null
      and stock.product_id = alert.product_id and stock.size = alert.size
      and stock.quantity - stock.held > 0
      and product.id = alert.product_id
    returning alert.id, alert.email, alert.size, product.name, product.slug`);
  const unsubscribeUntil = new Date(Date.now() + STOCK_ALERT_UNSUBSCRIBE_DAYS * 86_400_000);
  for (const alert of rows) {
    const token = signStockAlertLink(signingKey, { purpose: "unsubscribe", email: alert.email }, unsubscribeUntil);
    await enqueueEmail(tx, {
      kind: "back_in_stock",
      eventKey: alert.id,
      to: alert.email,
      data: {
        productName: alert.name,
        size: alert.size,
        productUrl: `${shop.publicUrl}/products/${alert.slug}`,
        unsubscribeUrl: `${shop.publicUrl}/stock-alerts/unsubscribe?token=${token}`,
      },
    });
  }
  return rows.length;
}
