import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useSearch } from "wouter";
import { centsToDecimal, parseRandToCents } from "../../../domain/money";
import { amountToFreeDeliveryCents, deliveryFeeCents } from "../../../domain/pricing";
import type { CreateOrderAnswer, CreateOrderInput, DeliveryInfo } from "../../../domain/schemas/orders";
import { PROVINCES } from "../../../domain/schemas/orders";
import { useSession } from "../../app/session";
import { toast } from "../../components/ui/toast";
import { apiRequest } from "../../lib/api";
import { formatRand } from "../../lib/format";
import { useCart } from "../cart/cart-context";
import { postToPayfast } from "./payfast-redirect";

type DeliveryForm = Omit<DeliveryInfo, "province"> & { province: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const toRand = (cents: number) => Number(centsToDecimal(cents));

/** /checkout (SPEC.md sections 2, 4, 5 and 8). */
export default function CheckoutPage() {
  const cart = useCart();
  const { user, setLoginOpen } = useSession();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [placing, setPlacing] = useState(false);

  const subtotal = cart.subtotalCents;
  const fee = deliveryFeeCents(subtotal);
  const total = subtotal + fee;
  const toFree = amountToFreeDeliveryCents(subtotal);

  const { register, handleSubmit, reset, formState } = useForm<DeliveryForm>({
    defaultValues: { name: "", phone: "", email: "", address: "", city: "", province: "", zipCode: "" },
  });

  // Prefill from the profile once the user is known (without overwriting what the shopper typed).
  useEffect(() => {
    if (!user || formState.isDirty) return;
    reset({
      name: user.fullName,
      phone: user.phone,
      email: user.email,
      address: user.address,
      city: user.city,
      province: "",
      zipCode: user.zipCode,
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
    if (empty && !placing) navigate("/", { replace: true });
  }, [empty, placing, navigate]);
  if (empty) return null;

  const placeOrder = async (form: DeliveryForm) => {
    const delivery = Object.fromEntries(
      Object.entries(form).map(([key, value]) => [key, String(value ?? "").trim()]),
    ) as DeliveryForm;
    if (Object.values(delivery).some((value) => !value)) {
      toast({
        title: "Missing Information",
        description: "Please fill in all delivery details including phone number and email address.",
        variant: "error",
      });
      return;
    }
    if (!EMAIL.test(delivery.email)) {
      toast({ title: "Invalid Email", description: "Please enter a valid email address.", variant: "error" });
      return;
    }
    if (!user) {
      setLoginOpen(true);
      return;
    }
    const body: CreateOrderInput = {
      subtotal: toRand(subtotal),
      deliveryFee: toRand(fee),
      total: toRand(total),
      items: cart.items.map((line) => ({
        ...line,
        price: toRand(parseRandToCents(line.price) ?? 0),
      })),
      customerEmail: delivery.email,
      userId: user.id,
      deliveryInfo: delivery as DeliveryInfo,
    };
    setPlacing(true);
    try {
      const answer = await apiRequest<Partial<CreateOrderAnswer>>("POST", "/api/create-order", body);
      if (!answer.orderId || !answer.payfastData || !answer.payfastUrl) {
        toast({
          title: "Configuration Error",
          description: "Payment system is not properly configured. Please contact support.",
          variant: "error",
        });
        setPlacing(false);
        return;
      }
      toast({ title: "Redirecting to Payment", description: "Taking you to PayFast to pay securely." });
      postToPayfast(answer.payfastUrl, answer.payfastData);
    } catch (error) {
      toast({
        title: "Order Creation Failed",
        description:
          error instanceof Error && error.message ? error.message : "Failed to create order. Please try again.",
        variant: "error",
      });
      setPlacing(false);
    }
  };

  const field =
    "mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 shadow-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700/30";
  const label = "block text-sm font-medium text-stone-800";

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

      <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
        <form
          id="checkout-form"
          noValidate
          onSubmit={handleSubmit(placeOrder)}
          className="space-y-6"
          aria-label="Delivery details"
        >
          <section className="rounded-2xl border border-brand-100 bg-brand-50 p-4 text-sm text-brand-900">
            <h2 className="font-semibold">Delivery</h2>
            <p className="mt-1">
              Nationwide delivery by courier, in 2-5 business days. Orders are processed within 24 hours.
            </p>
            <p className="mt-1 font-medium">
              {toFree > 0
                ? `Add ${formatRand(toFree)} more to your order for free delivery.`
                : "Your order qualifies for free delivery."}
            </p>
          </section>

          <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
            <h2 className="text-lg font-semibold">Delivery details</h2>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <label className={`${label} sm:col-span-2`}>
                Full name
                <input className={field} autoComplete="name" {...register("name")} />
              </label>
              <label className={label}>
                Phone number
                <input className={field} type="tel" autoComplete="tel" inputMode="tel" {...register("phone")} />
              </label>
              <label className={label}>
                Email address
                <input className={field} type="email" autoComplete="email" {...register("email")} />
              </label>
              <label className={`${label} sm:col-span-2`}>
                Street address
                <input className={field} autoComplete="street-address" {...register("address")} />
              </label>
              <label className={label}>
                City
                <input className={field} autoComplete="address-level2" {...register("city")} />
              </label>
              <label className={label}>
                Province
                <select className={field} autoComplete="address-level1" {...register("province")}>
                  <option value="">Choose a province</option>
                  {PROVINCES.map((province) => (
                    <option key={province} value={province}>
                      {province}
                    </option>
                  ))}
                </select>
              </label>
              <label className={label}>
                Postal code
                <input className={field} autoComplete="postal-code" inputMode="numeric" {...register("zipCode")} />
              </label>
            </div>
          </section>
        </form>

        <aside className="space-y-4 lg:sticky lg:top-24 lg:self-start">
          <section
            className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm"
            aria-labelledby="summary-title"
          >
            <h2 id="summary-title" className="text-lg font-semibold">
              Order summary
            </h2>
            <ul className="mt-3 divide-y divide-stone-100">
              {cart.items.map((line) => {
                const unit = parseRandToCents(line.price) ?? 0;
                return (
                  <li key={`${line.id}:${line.size}`} className="flex justify-between gap-3 py-2 text-sm">
                    <span>
                      {line.name} <span className="text-stone-600">({line.size})</span> × {line.quantity}
                    </span>
                    <span className="tabular shrink-0">{formatRand(unit * line.quantity)}</span>
                  </li>
                );
              })}
            </ul>
            <dl className="mt-3 space-y-1 border-t border-stone-200 pt-3 text-sm">
              <div className="flex justify-between">
                <dt>Subtotal</dt>
                <dd className="tabular">{formatRand(subtotal)}</dd>
              </div>
              <div className="flex justify-between">
                <dt>Delivery</dt>
                <dd className="tabular">{fee === 0 ? "Free" : formatRand(fee)}</dd>
              </div>
              <div className="flex justify-between pt-1 text-base font-semibold">
                <dt>Total</dt>
                <dd className="tabular">{formatRand(total)}</dd>
              </div>
              <p className="text-xs text-stone-600">Prices include 15% VAT.</p>
            </dl>
          </section>

          <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
            <h2 className="text-lg font-semibold">Payment</h2>
            <p className="mt-1 text-sm text-stone-600">
              Secure payment with PayFast (card and instant EFT). You will be redirected to PayFast to pay.
            </p>
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
          </section>
        </aside>
      </div>
    </div>
  );
}
