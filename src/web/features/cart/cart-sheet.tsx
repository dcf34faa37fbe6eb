import { Dialog } from "radix-ui";
import { Suspense } from "react";
import { useLocation } from "wouter";
import { parseRandToCents } from "#domain/money.js";
import { amountToFreeDeliveryCents } from "#domain/pricing.js";
import { ProductImage } from "#web/components/ui/product-image.js";
import { formatRand } from "#web/lib/format.js";
import { isLastOfProduct, MultibuyLineNote, useCartMultibuy } from "../checkout";
import { cartAtPlanPrices, PlanOption, usePlanWeeks } from "../plans";
import { useCart } from "./cart-context";
import { useLineStock } from "./line-stock";
import { LineStockNote } from "./line-stock-note";

/** The Shopping Cart side sheet (docs/product.md §2). Loaded only when opened. */
export default function CartSheet() {
  const cart = useCart();
  const stockOf = useLineStock();
  const multibuy = useCartMultibuy();
  const [, navigate] = useLocation();
  // A nappy plan: the box at plan prices instead of multi-buy tiers, as the checkout will price it (decision 050).
  const box = usePlanWeeks() ? cartAtPlanPrices(cart.items) : null;
  const toFree = amountToFreeDeliveryCents(box ? box.subtotalCents : cart.subtotalCents);

  const checkout = () => {
    if (cart.items.length === 0) return;
    cart.setOpen(false);
    navigate("/checkout");
  };

  return (
    <Dialog.Root open={cart.open} onOpenChange={cart.setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="sheet-overlay fixed inset-0 z-50 bg-stone-950/40" />
        <Dialog.Content className="sheet-content fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col bg-white shadow-2xl focus:outline-none">
          <header className="flex items-center justify-between border-b border-stone-200 px-5 py-4">
            <Dialog.Title className="text-lg font-semibold">Shopping Cart</Dialog.Title>
            <Dialog.Close
              aria-label="Close cart"
              className="grid size-11 place-items-center rounded-full text-2xl text-stone-600 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </header>
          <Dialog.Description className="sr-only">
            The items in your cart, with their sizes and quantities.
          </Dialog.Description>

          {cart.items.length === 0 ? (
            <div className="flex flex-1 flex-col items-center justify-center gap-4 px-6 text-center">
              <EmptyCartIcon />
              <p className="text-lg font-medium text-stone-800">Your cart is empty</p>
              <p className="text-sm text-stone-600">Nappies, period care and extras, delivered in 2-5 business days.</p>
              <Dialog.Close className="min-h-11 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700">
                Continue Shopping
              </Dialog.Close>
            </div>
          ) : (
            <>
              <ul className="flex-1 divide-y divide-stone-100 overflow-y-auto px-5" aria-label="Cart items">
                {cart.items.map((line, index) => {
                  const unit = parseRandToCents(line.price) ?? 0;
                  const label = `${line.name}, size ${line.size}`;
                  const stock = stockOf(line);
                  return (
                    <li key={`${line.id}:${line.size}`} className="flex gap-3 py-4">
                      <ProductImage
                        src={line.sizeImages[line.size] || line.image}
                        alt=""
                        width={72}
                        height={72}
                        sizes="72px"
                        eager
                        className="size-18 shrink-0 rounded-lg bg-stone-50 object-contain"
                      />
                      <div className="min-w-0 flex-1">
                        <p className="font-medium leading-snug text-stone-900">{line.name}</p>
                        <p className="text-sm text-stone-600">Size: {line.size}</p>
                        <p className="tabular text-sm text-stone-600">{formatRand(unit)} each</p>
                        <LineStockNote stock={stock} quantity={line.quantity} />
                        {!box && (
                          <MultibuyLineNote line={line} multibuy={multibuy} last={isLastOfProduct(cart.items, index)} />
                        )}
                        <div className="mt-2 flex items-center gap-2">
                          <button
                            type="button"
                            aria-label={`Decrease quantity of ${label}`}
                            onClick={() => cart.setQuantity(line.id, line.size, line.quantity - 1, stock.max)}
                            className="grid size-11 shrink-0 place-items-center rounded-lg border border-stone-300 text-lg hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-700"
                          >
                            −
                          </button>
                          <output className="tabular w-8 text-center font-medium" aria-label={`Quantity of ${label}`}>
                            {line.quantity}
                          </output>
                          <button
                            type="button"
                            aria-label={`Increase quantity of ${label}`}
                            disabled={line.quantity >= stock.max}
                            onClick={() => cart.setQuantity(line.id, line.size, line.quantity + 1, stock.max)}
                            className="grid size-11 shrink-0 place-items-center rounded-lg border border-stone-300 text-lg hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-stone-400 disabled:hover:bg-transparent"
                          >
                            +
                          </button>
                          <button
                            type="button"
                            aria-label={`Remove ${label}`}
                            onClick={() => cart.remove(line.id, line.size)}
                            className="ml-auto min-h-11 rounded-lg px-3 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700"
                          >
                            Remove
                          </button>
                        </div>
                      </div>
                      <p className="tabular shrink-0 font-semibold">{formatRand(unit * line.quantity)}</p>
                    </li>
                  );
                })}
              </ul>
              <footer className="space-y-3 border-t border-stone-200 px-5 py-4">
                <Suspense fallback={<div className="h-24" aria-hidden="true" />}>
                  <PlanOption savingBp={cart.items[0]?.planSavingBp} compact />
                </Suspense>
                <p className="text-sm text-stone-600">
                  {toFree > 0
                    ? `Add ${formatRand(toFree)} more for free delivery.`
                    : "Your order qualifies for free delivery."}
                </p>
                {box && (
                  <div className="flex items-baseline justify-between text-sm text-brand-800">
                    <span>Nappy plan saving</span>
                    <span className="tabular">-{formatRand(box.savingCents)}</span>
                  </div>
                )}
                {!box && multibuy.discountCents > 0 && (
                  <div className="flex items-baseline justify-between text-sm text-brand-800">
                    <span>Multi-buy saving</span>
                    <span className="tabular">-{formatRand(multibuy.discountCents)}</span>
                  </div>
                )}
                <div className="flex items-baseline justify-between text-lg font-semibold">
                  <span>Total</span>
                  <span className="tabular">
                    {formatRand(box ? box.subtotalCents : cart.subtotalCents - multibuy.discountCents)}
                  </span>
                </div>
                <button
                  type="button"
                  onClick={checkout}
                  className="min-h-12 w-full rounded-lg bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                >
                  Proceed to Checkout
                </button>
                <button
                  type="button"
                  onClick={cart.clear}
                  className="min-h-11 w-full rounded-lg border border-stone-300 px-4 py-2 font-medium text-stone-700 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-700"
                >
                  Clear Cart
                </button>
              </footer>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EmptyCartIcon() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true" className="text-brand-700">
      <circle cx="32" cy="32" r="30" fill="currentColor" opacity="0.08" />
      <path
        d="M18 22h4l4 18h16l4-12H24"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="28" cy="46" r="2.5" fill="currentColor" />
      <circle cx="40" cy="46" r="2.5" fill="currentColor" />
    </svg>
  );
}
