import { Link } from "wouter";
import { CATEGORY_SHORTCUTS } from "#domain/catalog.js";
import { FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";
import { pricesLine } from "#domain/vat-wording.js";
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from "#web/components/ui/icons.js";
import { Logo } from "#web/components/ui/logo.js";
import { publicConfig, telHref } from "#web/lib/public-config.js";

interface SiteFooterProps {
  onProducts: () => void;
  onCategory: (category: string) => void;
  onAbout: () => void;
  onRequests: () => void;
}

/**
 * The bottom row: the policies and the Legal page (ECTA s43(1)), each rendered on the server. The
 * CGSO's website and telephone are written out, not imported from `CGSO` (src/domain/policies.ts):
 * the footer is in the entry bundle, and the import would cost 0.2 KB of its budget.
 */
const LEGAL_LINKS = [
  ["/return-policy", "Return Policy"],
  ["/privacy", "Privacy Policy"],
  ["/terms", "Terms and Conditions"],
  ["/legal", "Legal"],
] as const;

const linkClass =
  "inline-flex min-h-11 items-center text-stone-200 underline-offset-4 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-300 sm:min-h-9";

export function SiteFooter({ onProducts, onCategory, onAbout, onRequests }: SiteFooterProps) {
  const shop = publicConfig;
  return (
    <footer className="bg-brand-950 text-stone-200">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 md:grid-cols-3 lg:grid-cols-[1.4fr_1fr_1fr_1.4fr]">
        <div className="col-span-2 md:col-span-3 lg:col-span-1">
          <Logo name={shop.name} tone="light" />
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-stone-300">
            Nappies, period care and everyday extras for South African families and carers, delivered nationwide by
            courier in 2-5 business days.
          </p>
          <p className="mt-4 text-sm text-stone-300">Free delivery on orders of {FREE_DELIVERY_FROM_TEXT} or more.</p>
        </div>

        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="text-sm font-semibold tracking-wide text-white uppercase">
            Quick Links
          </h2>
          <ul className="mt-3 text-sm">
            <li>
              <Link
                href="/"
                className={linkClass}
                onClick={() => {
                  if (window.location.pathname === "/") window.scrollTo({ top: 0 });
                }}
              >
                Home
              </Link>
            </li>
            <li>
              {/* biome-ignore lint/a11y/useValidAnchor: a real link to the products (works without JS); the click scrolls in-app */}
              <a
                href="/#products"
                className={linkClass}
                onClick={(event) => {
                  event.preventDefault();
                  onProducts();
                }}
              >
                Products
              </a>
            </li>
            <li>
              <button type="button" className={linkClass} onClick={onAbout}>
                About Us
              </button>
            </li>
            <li>
              <button type="button" className={linkClass} onClick={onRequests}>
                Requests
              </button>
            </li>
          </ul>
        </nav>

        <nav aria-labelledby="footer-categories">
          <h2 id="footer-categories" className="text-sm font-semibold tracking-wide text-white uppercase">
            Shop by Category
          </h2>
          <ul className="mt-3 text-sm">
            {CATEGORY_SHORTCUTS.map((shortcut) => (
              <li key={shortcut.category}>
                <button type="button" className={linkClass} onClick={() => onCategory(shortcut.category)}>
                  {shortcut.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>

        <div className="col-span-2 md:col-span-1">
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contact Us</h2>
          <ul className="mt-3 grid gap-1 text-sm">
            <li className="flex items-center gap-2">
              <MailIcon className="size-4 shrink-0 text-brand-300" />
              <a href={`mailto:${shop.email}`} className={linkClass}>
                {shop.email}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <PhoneIcon className="size-4 shrink-0 text-brand-300" />
              <a href={telHref(shop.phone)} className={linkClass}>
                {shop.phone}
              </a>
            </li>
            <li className="flex items-start gap-2 py-2">
              <PinIcon className="mt-0.5 size-4 shrink-0 text-brand-300" />
              <span>{shop.address}</span>
            </li>
            <li className="flex items-start gap-2 py-2">
              <ClockIcon className="mt-0.5 size-4 shrink-0 text-brand-300" />
              <span>Store hours: {shop.hours}</span>
            </li>
          </ul>
        </div>
      </div>

      <div className="border-t border-white/15">
        <div className="mx-auto grid max-w-6xl gap-3 px-4 py-6 text-sm text-stone-300">
          <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
            <p>
              © {new Date().getFullYear()} {shop.name}. {pricesLine(shop.vatRegistered)}
            </p>
            <ul className="flex flex-wrap gap-x-6">
              {LEGAL_LINKS.map(([href, label]) => (
                <li key={href}>
                  <Link href={href} className={linkClass}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
          <p>
            {shop.name} is run by {shop.seller}
            {shop.registrationNumber && `, reg. no. ${shop.registrationNumber}`}
            {shop.sellerDemo && " (demo details)"}. Bound by the Consumer Goods and Services Industry Code: complain to
            us first, then to the CGSO (www.cgso.org.za, 0860 000 272).
          </p>
        </div>
      </div>
    </footer>
  );
}
