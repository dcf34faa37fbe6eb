import { buttonClass } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { MailIcon, PhoneIcon } from "#web/components/ui/icons.js";
import { publicConfig, telHref } from "#web/lib/public-config.js";

/** Requests: specialist medical products are quoted by e-mail (docs/product.md §1). */
export default function RequestsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const shop = publicConfig;
  const subject = encodeURIComponent("Product request");
  const body = encodeURIComponent("Product:\nSize:\nQuantity:\nDelivery town or city:\n");
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Product Requests"
      description="Looking for something we don't list? We'll find it for you."
    >
      <div className="grid gap-4 leading-relaxed text-stone-700">
        <p>
          Need a specialist medical product, such as a particular incontinence product, a larger pack or a size we don't
          stock? E-mail us and we'll come back to you with a tailored quote.
        </p>
        <div className="rounded-xl border border-sand-200 bg-page p-4 text-sm">
          <p className="font-semibold text-stone-950">Please tell us</p>
          <ul className="mt-2 grid list-disc gap-1 pl-5 marker:text-brand-700">
            <li>the product name or a description of what you need</li>
            <li>the size and how many you need</li>
            <li>the town or city we should deliver to</li>
          </ul>
        </div>
        <div className="flex flex-wrap gap-3">
          <a href={`mailto:${shop.email}?subject=${subject}&body=${body}`} className={buttonClass()}>
            <MailIcon className="size-4" />
            E-mail {shop.email}
          </a>
          <a href={telHref(shop.phone)} className={buttonClass({ variant: "outline" })}>
            <PhoneIcon className="size-4" />
            Call {shop.phone}
          </a>
        </div>
        <p className="text-sm text-stone-600">We answer {shop.hours}.</p>
      </div>
    </Dialog>
  );
}
