import { categoryBadge } from "#domain/catalog.js";
import { DISPATCH_PROMISE, FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";
import { Button } from "#web/components/ui/button.js";
import { ShieldIcon, TruckIcon } from "#web/components/ui/icons.js";
import { useCatalog } from "./catalog-context";
import { IMAGE_SIZE } from "./product-card";

const TILES = [
  { category: "baby", note: "Nappies and wipes", image: "/images/products/baby-newborn-nappies.svg" },
  {
    category: "kids",
    note: "Pull-ups and night pants",
    image: "/images/products/kids-pull-up-pants.svg",
  },
  { category: "adult", note: "Pants, pads and bed care", image: "/images/products/adult-pants.svg" },
  {
    category: "pads",
    note: "Pads, liners and tampons",
    image: "/images/products/pads-ultra-thin.svg",
  },
] as const;

export function Hero() {
  const { goToProducts, learnMore, showCategory } = useCatalog();
  return (
    <section aria-labelledby="hero-heading" className="border-b border-sand-200 bg-gradient-to-b from-brand-50 to-page">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-10 sm:py-14 md:grid-cols-[1.1fr_1fr] lg:py-16">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-800">
            Delivered to your door, anywhere in South Africa
          </p>
          <h1
            id="hero-heading"
            className="mt-3 text-3xl leading-tight font-bold text-balance text-stone-950 sm:text-4xl lg:text-5xl"
          >
            Nappies and period care you can count on
          </h1>
          <p className="mt-4 max-w-xl text-base leading-relaxed text-stone-700 sm:text-lg">
            Baby, kids and adult nappies, pads, tampons and the everyday extras that make changes easier, at fair prices
            in rand. {DISPATCH_PROMISE} Our courier delivers in 2-5 business days.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button size="lg" onClick={goToProducts}>
              Shop Now
            </Button>
            <Button size="lg" variant="outline" onClick={learnMore}>
              Learn More
            </Button>
          </div>
          <ul className="mt-8 grid gap-3 text-sm text-stone-700 sm:grid-cols-2">
            <li className="flex items-start gap-2">
              <TruckIcon className="mt-px size-5 shrink-0 text-brand-700" />
              <span>Free delivery on orders of {FREE_DELIVERY_FROM_TEXT} or more</span>
            </li>
            <li className="flex items-start gap-2">
              <ShieldIcon className="mt-px size-5 shrink-0 text-brand-700" />
              <span>Secure payment with PayFast (card and instant EFT)</span>
            </li>
          </ul>
        </div>

        <div className="hidden grid-cols-2 gap-3 md:grid">
          {TILES.map((tile) => (
            <button
              key={tile.category}
              type="button"
              onClick={() => showCategory(tile.category)}
              className="group flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white text-left shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              <img
                src={tile.image}
                alt=""
                width={IMAGE_SIZE}
                height={IMAGE_SIZE}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full object-cover"
              />
              <span className="px-4 pt-3 text-base font-semibold text-stone-950 group-hover:text-brand-800">
                Shop {categoryBadge(tile.category)}
              </span>
              <span className="px-4 pb-3 text-sm text-stone-600">{tile.note}</span>
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
