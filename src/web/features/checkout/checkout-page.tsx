import { zodResolver } from "@hookform/resolvers/zod";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import { Link, useLocation, useSearch } from "wouter";
import { POSTAL_CODE_PATTERN } from "#domain/delivery.js";
import { centsToDecimal, parseRandToCents } from "#domain/money.js";
import { amountToFreeDeliveryCents, DISPATCH_PROMISE, deliveryFeeCents } from "#domain/pricing.js";
import type { DeliveryOptionsInput } from "#domain/schemas/delivery.js";
import { type CreateOrderInput, type DeliveryInfo, deliveryInfo } from "#domain/schemas/orders.js";
import type { PromoCheckAnswer } from "#domain/schemas/promo.js";
import { PausedNotice } from "#web/components/ui/paused-notice.js";
import { toast } from "#web/components/ui/toast.js";
import { formatRand } from "#web/lib/format.js";
import { isShopPaused } from "#web/lib/shop-paused.js";
import { useSession } from "../account";
import { useCart } from "../cart";
import { cartAtPlanPrices, PlanOption, PlanTerms, usePlanWeeks } from "../plans";
import { useCreateOrder } from "./api/create-order";
import { DeliveryFields, type DeliveryForm, REQUIRED_DELIVERY_FIELDS } from "./delivery-fields";
import { type ChosenDelivery, DeliveryOptions } from "./delivery-options";
import { useCartMultibuy } from "./multibuy-note";
import { OrderSummary } from "./order-summary";
import { PlanPayNotice, PlanPayWaiting, usePlanPayCart } from "./plan-pay-box";

const toRand = (cents: number) => Number(centsToDecimal(cents));

// The promo code field loads when the checkout shows it, never with the storefront (docs/decisions/023).
const PromoCodeField = lazy(() => import("./promo-code-field"));

// The form holds text ("" before a province is chosen); the shared schema turns it into DeliveryInfo.
const resolver = zodResolver(deliveryInfo) as unknown as Resolver<DeliveryForm, unknown, DeliveryInfo>;

/** The toast for a form the schema refused, in the words the checkout has always used. */
function refusedToast(values: DeliveryForm, errors: FieldErrors<DeliveryForm>) {
  if (REQUIRED_DELIVERY_FIELDS.some((name) => !String(values[name] ?? "").trim())) {
    toast({
      title: "Missing Information",
      description: "Please fill in all delivery details including phone number and email address.",
      variant: "error",
    });
  } else if (errors.email) {
    toast({ title: "Invalid Email", description: "Please enter a valid email address.", variant: "error" });
  } else {
    toast({ title: "Check your details", description: "Please correct the highlighted fields.", variant: "error" });
  }
}

/** /checkout (docs/product.md §2, §4, §5 and §8). */
export default function CheckoutPage() {
  const cart = useCart();
  const { user, setLoginOpen } = useSession();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [placing, setPlacing] = useState(false);
  const create = useCreateOrder({ onFailed: () => setPlacing(false) });

  // A promo code the server accepted for this cart: its figures are the ones create-order will charge.
  // Its answer may say the code is not used (MULTIBUY_WITH_PROMO=best, the multi-buy saves more): its figures still count.
  const [promo, setPromo] = useState<PromoCheckAnswer | null>(null);
  const multibuy = useCartMultibuy();
  // A nappy plan: every line at its plan price, no multi-buy or promo code (docs/decisions/050); the server prices it again.
  const chosenWeeks = usePlanWeeks();
  // A reminder plan's pay link (`?pay=`): the cart is the plan's box, at plan prices, paid as that box.
  const payToken = new URLSearchParams(search).get("pay")?.trim() ?? "";
  const payBox = usePlanPayCart(payToken);
  const paying = payBox.kind === "ready" ? payBox.box : null;
  const planWeeks = payToken ? null : chosenWeeks;
  const atPlanPrices = Boolean(planWeeks || paying);
  const [payBy, setPayBy] = useState<"card" | "eft">("card");
  const box = atPlanPrices ? cartAtPlanPrices(cart.items) : null;
  const items = box ? box.items : cart.items;
  const planPromo = atPlanPrices ? null : promo;
  const subtotal = box ? box.subtotalCents : cart.subtotalCents;
  const cents = (text: string | undefined) => parseRandToCents(text ?? "0") ?? 0;
  // The chosen delivery option's price (docs/decisions/051); before one is priced, the flat rule.
  const [chosenDelivery, setChosenDelivery] = useState<ChosenDelivery | null>(null);
  const optionFee = chosenDelivery ? cents(chosenDelivery.charge) : deliveryFeeCents(subtotal);
  const fee = planPromo?.applied && planPromo.deliveryDiscount !== "0.00" ? 0 : optionFee;
  const discount = planPromo?.applied ? cents(planPromo.discount) : 0;
  const multibuyDiscount = atPlanPrices ? 0 : planPromo ? cents(planPromo.multibuyDiscount) : multibuy.discountCents;
  const total = planPromo
    ? cents(planPromo.total) - cents(planPromo.deliveryFee) + fee
    : subtotal - multibuyDiscount + fee;
  const toFree = amountToFreeDeliveryCents(subtotal);

  const { register, handleSubmit, reset, getValues, formState, watch } = useForm<DeliveryForm, unknown, DeliveryInfo>({
    resolver,
    defaultValues: {
      name: "",
      phone: "",
      altPhone: "",
      email: "",
      address: "",
      complex: "",
      suburb: "",
      city: "",
      province: "",
      zipCode: "",
      deliveryInstructions: "",
      companyName: "",
      vatNumber: "",
    },
  });

  // The options are asked for once the postal code is a real one, while the shopper types the rest;
  // the cart, code, province and chosen locker are the quote's key, which create-order finds again
  // (src/server/delivery/options.ts quoteKey), so the price shown is the price charged.
  const zipCode = (watch("zipCode") ?? "").trim();
  const province = watch("province") ?? "";
  const lockerCode = chosenDelivery?.service === "locker" ? chosenDelivery.point?.code : undefined;
  const optionsInput = useMemo<DeliveryOptionsInput | null>(
    () =>
      POSTAL_CODE_PATTERN.test(zipCode)
        ? {
            items: cart.items.map(({ id, size, quantity }) => ({ id, size, quantity })),
            destination: { zipCode, province },
            // The chosen locker's own rate, as create-order asks for it.
            ...(lockerCode ? { lockerCode } : {}),
            // A plan's box (or a plan's pay link) is at plan prices: the free-delivery threshold counts them (decision 051).
            ...(atPlanPrices ? { plan: true } : {}),
          }
        : null,
    [zipCode, province, cart.items, atPlanPrices, lockerCode],
  );

  // Prefill from the profile once the user is known (without overwriting what the shopper typed).
  useEffect(() => {
    if (!user || formState.isDirty) return;
    reset({
      name: user.fullName,
      phone: user.phone,
      // A user kept by an older page may not have it yet.
      altPhone: user.altPhone ?? "",
      email: user.email,
      address: user.address,
      complex: user.complex ?? "",
      suburb: user.suburb ?? "",
      city: user.city,
      province: user.province ?? "",
      zipCode: user.zipCode,
      deliveryInstructions: user.deliveryInstructions ?? "",
      companyName: "",
      vatNumber: "",
    });
  }, [user, reset, formState.isDirty]);

  // Back from PayFast's cancel: say so once, and drop the query from the address.
  useEffect(() => {
    if (new URLSearchParams(search).get("cancelled") === "true") {
      toast({
        title: "Payment Cancelled",
        description: "Your payment was cancelled. You can try again when ready.",
        variant: "error",
      });
      navigate("/checkout", { replace: true });
    }
  }, [search, navigate]);

  // An empty or missing cart has nothing to check out.
  const empty = cart.items.length === 0;
  useEffect(() => {
    if (empty && !placing && !payToken) navigate("/", { replace: true });
  }, [empty, placing, payToken, navigate]);
  if (payToken && !paying) return <PlanPayWaiting state={payBox} onLogIn={() => setLoginOpen(true)} />;
  if (empty) return null;

  const placeOrder = (delivery: DeliveryInfo) => {
    if (!user) {
      setLoginOpen(true);
      return;
    }
    if (
      chosenDelivery &&
      chosenDelivery.service !== "door_economy" &&
      chosenDelivery.service !== "door_express" &&
      !chosenDelivery.point
    ) {
      toast({
        title: "Choose where to collect",
        description: `Please choose a ${chosenDelivery.service === "locker" ? "locker" : "pickup point"} from the list, or door delivery.`,
        variant: "error",
      });
      return;
    }
    const body: CreateOrderInput = {
      subtotal: toRand(subtotal),
      deliveryFee: toRand(fee),
      total: toRand(total),
      items: items.map((line) => ({
        ...line,
        price: toRand(parseRandToCents(line.price) ?? 0),
      })),
      customerEmail: delivery.email,
      userId: user.id,
      ...(planPromo?.applied ? { promoCode: planPromo.code } : {}),
      ...(planWeeks ? { plan: { cadenceWeeks: planWeeks, payBy } } : {}),
      ...(paying ? { planPayLink: payToken } : {}),
      ...(chosenDelivery
        ? {
            delivery: {
              service: chosenDelivery.service,
              ...(chosenDelivery.point ? { pointCode: chosenDelivery.point.code } : {}),
            },
          }
        : {}),
      deliveryInfo: {
        ...delivery,
        companyName: delivery.companyName ?? undefined,
        vatNumber: delivery.vatNumber ?? undefined,
      },
    };
    setPlacing(true);
    create.mutate(body);
  };
  const refused = (errors: FieldErrors<DeliveryForm>) => refusedToast(getValues(), errors);

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-10">
      <div className="mb-6 flex items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">Checkout</h1>
        <Link
          href="/"
          aria-label="Close checkout and return to the store"
          className="grid size-11 place-items-center rounded-full border border-stone-300 bg-white text-2xl text-stone-600 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          <span aria-hidden="true">×</span>
        </Link>
      </div>

      {/* What this payment is, first on every width. */}
      {paying && (
        <div className="mb-6">
          <PlanPayNotice box={paying} />
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
        <form
          id="checkout-form"
          noValidate
          onSubmit={handleSubmit(placeOrder, refused)}
          className="space-y-6"
          aria-label="Delivery details"
        >
          <section className="rounded-2xl border border-brand-100 bg-brand-50 p-4 text-sm text-brand-900">
            <h2 className="font-semibold">Delivery</h2>
            <p className="mt-1">Nationwide delivery by courier, in 2-5 business days. {DISPATCH_PROMISE}</p>
            <p className="mt-1 font-medium">
              {toFree > 0
                ? `Add ${formatRand(toFree)} more to your order for free delivery.`
                : "Your order qualifies for free delivery."}
            </p>
          </section>

          <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
            <h2 className="text-lg font-semibold">Delivery details</h2>
            {/* POPIA s18: what the details are for, where they are collected (a new tab keeps the form). */}
            <p className="mt-1 text-sm text-stone-600">
              We use your details to deliver your order and as our{" "}
              <a href="/privacy" target="_blank" rel="noopener" className="font-medium text-brand-800 underline">
                Privacy Policy
              </a>{" "}
              says.
            </p>
            <DeliveryFields register={register} errors={formState.errors} />
          </section>

          <section
            className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm"
            aria-labelledby="delivery-options-heading"
          >
            <h2 id="delivery-options-heading" className="text-lg font-semibold">
              Delivery options
            </h2>
            <DeliveryOptions input={optionsInput} chosen={chosenDelivery} onChange={setChosenDelivery} />
          </section>
        </form>

        <aside className="space-y-4 lg:sticky lg:top-24 lg:self-start">
          {!payToken && (
            <Suspense fallback={<div className="h-28" aria-hidden="true" />}>
              <PlanOption savingBp={cart.items[0]?.planSavingBp} />
            </Suspense>
          )}
          <OrderSummary
            items={items}
            subtotal={subtotal}
            fee={fee}
            total={total}
            multibuy={multibuy}
            multibuyDiscount={multibuyDiscount}
            promo={
              planPromo?.applied
                ? { code: planPromo.code, discount, freeDelivery: planPromo.deliveryDiscount !== "0.00" }
                : null
            }
          >
            {!atPlanPrices && (
              <Suspense fallback={<div className="h-16" aria-hidden="true" />}>
                <PromoCodeField items={cart.items} applied={promo} onApplied={setPromo} />
              </Suspense>
            )}
          </OrderSummary>

          <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
            <h2 className="text-lg font-semibold">Payment</h2>
            <p className="mt-1 text-sm text-stone-600">
              Secure payment with PayFast (card and instant EFT). You will be redirected to PayFast to pay.
            </p>
            {planWeeks && (
              <Suspense fallback={null}>
                <PlanTerms weeks={planWeeks} payBy={payBy} onPayBy={setPayBy} />
              </Suspense>
            )}
            {isShopPaused(create.error) && (
              <div className="mt-3">
                <PausedNotice action="checkout" />
              </div>
            )}
            {!user && (
              <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
                Please{" "}
                <button type="button" className="font-semibold underline" onClick={() => setLoginOpen(true)}>
                  log in
                </button>{" "}
                to place your order.
              </p>
            )}
            <button
              type="submit"
              form="checkout-form"
              disabled={placing}
              className="mt-4 min-h-12 w-full rounded-lg bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
            >
              {placing ? "Processing..." : `Place Order - ${formatRand(total)}`}
            </button>
            <p className="mt-3 text-xs text-stone-600">
              By placing your order you agree to our{" "}
              <a href="/terms" target="_blank" rel="noopener" className="font-medium text-brand-800 underline">
                Terms and Conditions
              </a>{" "}
              and{" "}
              <a href="/return-policy" target="_blank" rel="noopener" className="font-medium text-brand-800 underline">
                Return Policy
              </a>
              .
            </p>
          </section>
        </aside>
      </div>
    </div>
  );
}
