import type { ReactNode } from "react";
import type { CartLine } from "#domain/cart.js";
import { parseRandToCents } from "#domain/money.js";
import { vatWording } from "#domain/vat-wording.js";
import { formatRand } from "#web/lib/format.js";
import { publicConfig } from "#web/lib/public-config.js";
import { LineStockNote, useLineStock } from "../cart/api";
import { type CartMultibuy, isLastOfProduct, MultibuyLineNote } from "./multibuy-note";

/** The cart's lines and the order's totals beside the delivery form. */
export function OrderSummary({
  items,
  subtotal,
  fee,
  total,
  multibuy,
  multibuyDiscount,
  promo = null,
  children,
}: {
  items: readonly CartLine[];
  subtotal: number;
  fee: number;
  total: number;
  /** The cart's multi-buy tiers, and the saving the order gets from them (0 when a promo code wins instead). */
  multibuy: CartMultibuy;
  multibuyDiscount: number;
  /** An applied promo code: its discount off the goods, and whether it makes delivery free. */
  promo?: { code: string; discount: number; freeDelivery: boolean } | null;
  /** The promo code field, under the lines. */
  children?: ReactNode;
}) {
  const stockOf = useLineStock();
  return (
    <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm" aria-labelledby="summary-title">
      <h2 id="summary-title" className="text-lg font-semibold">
        Order summary
      </h2>
      <ul className="mt-3 divide-y divide-stone-100">
        {items.map((line, index) => {
          const unit = parseRandToCents(line.price) ?? 0;
          return (
            <li key={`${line.id}:${line.size}`} className="flex justify-between gap-3 py-2 text-sm">
              <span>
                {line.name} <span className="text-stone-600">({line.size})</span> × {line.quantity}
                <LineStockNote stock={stockOf(line)} quantity={line.quantity} />
                <MultibuyLineNote line={line} multibuy={multibuy} last={isLastOfProduct(items, index)} />
              </span>
              <span className="tabular shrink-0">{formatRand(unit * line.quantity)}</span>
            </li>
          );
        })}
      </ul>
      {children && <div className="mt-3 border-t border-stone-200 pt-3">{children}</div>}
      <dl className="mt-3 space-y-1 border-t border-stone-200 pt-3 text-sm">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd className="tabular">{formatRand(subtotal)}</dd>
        </div>
        {multibuyDiscount > 0 && (
          <div className="flex justify-between text-brand-800">
            <dt>Multi-buy saving</dt>
            <dd className="tabular">-{formatRand(multibuyDiscount)}</dd>
          </div>
        )}
        {promo && promo.discount > 0 && (
          <div className="flex justify-between text-brand-800">
            <dt>Promo code {promo.code}</dt>
            <dd className="tabular">-{formatRand(promo.discount)}</dd>
          </div>
        )}
        <div className="flex justify-between">
          <dt>{promo?.freeDelivery ? `Delivery (free with ${promo.code})` : "Delivery"}</dt>
          <dd className="tabular">{fee === 0 ? "Free" : formatRand(fee)}</dd>
        </div>
        <div className="flex justify-between pt-1 text-base font-semibold">
          <dt>Total</dt>
          <dd className="tabular">{formatRand(total)}</dd>
        </div>
        <p className="text-xs text-stone-600">{vatWording(publicConfig.vatRegistered).pricesNote}</p>
      </dl>
    </section>
  );
}
