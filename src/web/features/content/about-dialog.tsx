import { DELIVERY_FEE_TEXT, DISPATCH_PROMISE, FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";
import { vatWording } from "#domain/vat-wording.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { ClockIcon, GiftIcon, ShieldIcon, TruckIcon } from "#web/components/ui/icons.js";
import { publicConfig } from "#web/lib/public-config.js";

const POINTS = [
  {
    icon: TruckIcon,
    title: "Nationwide delivery",
    text: `By courier in 2-5 business days. ${DISPATCH_PROMISE}`,
  },
  {
    icon: GiftIcon,
    title: `Free delivery from ${FREE_DELIVERY_FROM_TEXT}`,
    text: `Orders below ${FREE_DELIVERY_FROM_TEXT} pay a flat ${DELIVERY_FEE_TEXT} delivery fee.`,
  },
  {
    icon: ShieldIcon,
    title: "Secure payment",
    text: `Pay with PayFast by card or instant EFT. ${vatWording(publicConfig.vatRegistered).pricesNote}`,
  },
  { icon: ClockIcon, title: "Here to help", text: `Call or e-mail us ${publicConfig.hours}.` },
];

/** About Us (header link and hero's Learn More). */
export default function AboutDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const shop = publicConfig;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`About ${shop.name}`}
      description="A South African shop for nappies, period care and everyday extras."
    >
      <div className="grid gap-4 leading-relaxed text-stone-700">
        <p>
          {shop.name} brings baby, kids and adult nappies, pads, tampons, wipes and skin care to your door, wherever you
          are in South Africa. We stock the everyday essentials that parents, carers and adults living with bladder
          leaks rely on, at fair prices in rand.
        </p>
        <ul className="grid gap-3 sm:grid-cols-2">
          {POINTS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-sand-200 bg-page p-4">
              <Icon className="size-6 text-brand-700" />
              <p className="mt-2 font-semibold text-stone-950">{title}</p>
              <p className="mt-1 text-sm text-stone-700">{text}</p>
            </li>
          ))}
        </ul>
        <p className="text-sm">
          Questions? E-mail{" "}
          <a className="font-medium text-brand-800 underline" href={`mailto:${shop.email}`}>
            {shop.email}
          </a>{" "}
          or call {shop.phone}.
        </p>
      </div>
    </Dialog>
  );
}
