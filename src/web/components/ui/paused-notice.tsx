import { ClockIcon } from "./icons";

/**
 * Shown where the shopper would have ordered or logged in while the shop cannot take orders for a
 * moment (the server answered SERVICE_UNAVAILABLE: its database is away). Calm, not an error: the
 * cart is kept and the storefront still browses.
 */
export function PausedNotice({ action }: { action: "checkout" | "login" }) {
  return (
    <div role="status" className="flex gap-3 rounded-xl border border-sand-200 bg-sand-100 p-4 text-stone-900">
      <span className="mt-0.5 grid size-8 shrink-0 place-items-center rounded-full bg-brand-700 text-white">
        <ClockIcon className="size-5" />
      </span>
      <div className="grid gap-1 text-sm">
        <p className="font-semibold text-stone-950">
          {action === "checkout" ? "Checkout is paused for a few minutes" : "Logging in is paused for a few minutes"}
        </p>
        <p className="text-stone-700">
          {action === "checkout"
            ? "Your cart is saved and you can keep browsing. Please place your order again in a few minutes."
            : "You can keep browsing in the meantime. Please try again in a few minutes."}
        </p>
      </div>
    </div>
  );
}
