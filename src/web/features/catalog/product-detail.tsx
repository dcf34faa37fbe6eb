import { lazy, Suspense, useId, useMemo, useState } from "react";
import { MAX_LINE_QUANTITY } from "#domain/limits.js";
import { parseRandToCents } from "#domain/money.js";
import { packText, perUnitText, priceText, sizePrice } from "#domain/packs.js";
import { planSavingBp, planUnitPriceCents } from "#domain/plans.js";
import { FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";
import type { Product } from "#domain/schemas/catalog.js";
import { maxOrderable } from "#domain/stock.js";
import { Button } from "#web/components/ui/button.js";
import { MinusIcon, PlusIcon, ShieldIcon, TruckIcon } from "#web/components/ui/icons.js";
import { ProductImage } from "#web/components/ui/product-image.js";
import { formatRand } from "#web/lib/format.js";
import { useMounted } from "#web/lib/use-mounted.js";
import { useAddToCart } from "../cart";
import { AbsorbencyNote } from "./absorbency-note";
import BackInStock from "./back-in-stock";
import { CategoryBadge } from "./category-badge";
import { MultibuyTiers } from "./multibuy-tiers";
import { addButtonLabel, IMAGE_SIZE } from "./product-card";
import { useRecommendedSize } from "./size-finder-store";
import { SizeGuide } from "./size-guide";

/** The size finder, loaded on the first click of "Find my size". */
const SizeFinder = lazy(() => import("./size-finder"));

import { PlanOption, usePlanWeeks } from "../plans";
import { LowStockNote } from "./stock-note";

const MIN_QUANTITY = 1;

interface ProductDetailProps {
  product: Product;
  /** The id of the description paragraph, which describes the dialog. */
  descriptionId: string;
  /** After a successful add: the dialog closes, the page starts over. */
  onAdded: () => void;
  /** Cards of the first screen load their image at once (the product page's image is its largest paint). */
  eager?: boolean;
  /** The level of the detail's own headings: 2 under the product page's h1, 3 under the dialog's title (an h2). */
  headingLevel?: 2 | 3;
}

/**
 * A product's detail (docs/product.md §2), in the dialog over the grid and on its own page: size
 * starts empty, quantity 1; adding resets both. The quantity stops at what is left of the size.
 */
export function ProductDetail({
  product,
  descriptionId,
  onAdded,
  eager = false,
  headingLevel = 3,
}: ProductDetailProps) {
  const [picked, setPicked] = useState<string | null>(null);
  // The size finder's answer preselects the size until the shopper picks one.
  const recommended = useRecommendedSize(product);
  const size = picked ?? recommended ?? "";
  const [finderOpen, setFinderOpen] = useState(false);
  const [quantity, setQuantity] = useState(MIN_QUANTITY);
  const addToCart = useAddToCart();
  const id = useId();
  // On the product's own page the detail is server-rendered: its size menu and "Find my size" wait for it to hydrate.
  const ready = useMounted();

  const sizeImage = size ? product.sizeImages[size] : undefined;
  const image = sizeImage || product.image;
  const shelfCents = parseRandToCents(size ? sizePrice(product, size) : product.price) ?? 0;
  // With a plan chosen, the total is at the plan price (docs/decisions/050), as the checkout charges it.
  const unitCents = usePlanWeeks() ? planUnitPriceCents(shelfCents, planSavingBp(product.planSavingBp)) : shelfCents;
  // The pack and price per unit of the chosen size, or "from" the lowest before one is chosen.
  const pack = [size && packText(product, size), perUnitText(product, size || null)].filter(Boolean).join(" · ");
  const promo = product.promoText?.trim();
  const outOfStockSizes = product.sizes.filter((option) => product.sizeOutOfStock[option]);
  const max = size ? Math.max(MIN_QUANTITY, maxOrderable(product, size)) : MAX_LINE_QUANTITY;
  // A size with fewer left than the quantity chosen brings the quantity down to what is left.
  const shownQuantity = Math.min(quantity, max);
  const left = size ? product.sizeLowStock[size] : undefined;
  const stockNoteId = `${id}-stock`;
  // One element across renders: the server-rendered chooser keeps its HTML while its chunk loads. A new
  // element (useMounted's re-render) would reach the boundary before it hydrates, and React would swap
  // the chooser for its shorter fallback and back, moving the page under it.
  const savingBp = product.planSavingBp;
  const planOption = useMemo(
    () => (
      <Suspense fallback={<div className="h-28" aria-hidden="true" />}>
        <PlanOption savingBp={savingBp} />
      </Suspense>
    ),
    [savingBp],
  );

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div className="mx-auto w-full max-w-64 md:max-w-none">
        <div className="aspect-square overflow-hidden rounded-xl bg-sand-100">
          <ProductImage
            key={image}
            src={image}
            alt={size && sizeImage ? `${product.name}, ${size}` : product.name}
            width={IMAGE_SIZE}
            height={IMAGE_SIZE}
            sizes="(min-width: 768px) 480px, 256px"
            eager={eager}
            className="size-full object-cover"
          />
        </div>
        <p role="status" className="mt-2 min-h-5 text-sm font-medium text-brand-800">
          {size && sizeImage ? `Image updated for ${size} size` : ""}
        </p>
      </div>

      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center gap-2">
          <CategoryBadge category={product.category} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <p className="tabular text-2xl font-bold text-stone-950">{priceText(product, size || null)}</p>
          {promo && <p className="rounded-md bg-red-700 px-2 py-1 text-xs font-semibold text-white">{promo}</p>}
        </div>
        {pack && <p className="tabular -mt-2 text-sm text-stone-600">{pack}</p>}
        <MultibuyTiers product={product} className="-mt-2" />
        {product.absorbency && <AbsorbencyNote level={product.absorbency} />}
        <p id={descriptionId} className="text-sm leading-relaxed text-stone-700">
          {product.description}
        </p>

        <div>
          <label htmlFor={`${id}-size`} className="text-sm font-semibold text-stone-900">
            Size
          </label>
          <select
            id={`${id}-size`}
            value={size}
            required
            disabled={!ready}
            onChange={(event) => setPicked(event.target.value)}
            aria-describedby={left ? stockNoteId : undefined}
            className="select-native mt-1"
          >
            <option value="" disabled>
              Choose a size
            </option>
            {product.sizes.map((option) => (
              <option key={option} value={option} disabled={Boolean(product.sizeOutOfStock[option])}>
                {product.sizeOutOfStock[option] ? `${option} - Out of Stock` : option}
              </option>
            ))}
          </select>
          {recommended && size === recommended && (
            <p className="mt-1 text-sm text-brand-800">Recommended by the size finder</p>
          )}
          <LowStockNote id={stockNoteId} left={left} className="mt-2" />
          {outOfStockSizes.length > 0 && (
            <p className="mt-2 text-sm text-stone-600">
              <span className="font-semibold text-red-800">Out of Stock:</span> {outOfStockSizes.join(", ")}
            </p>
          )}
          {outOfStockSizes.length > 0 && (
            <div className="mt-3">
              <BackInStock product={product} />
            </div>
          )}
        </div>

        {product.fitMeasure && (
          <div className="grid gap-3">
            <SizeGuide product={product} headingLevel={headingLevel} />
            {finderOpen ? (
              <Suspense fallback={<p className="text-sm text-stone-600">Loading...</p>}>
                <SizeFinder measure={product.fitMeasure} scope={{ productIds: [product.id] }} product={product} />
              </Suspense>
            ) : (
              <Button
                variant="secondary"
                disabled={!ready}
                onClick={() => setFinderOpen(true)}
                className="justify-self-start"
              >
                Find my size
              </Button>
            )}
          </div>
        )}

        {planOption}

        <div className="flex flex-wrap items-end justify-between gap-4">
          <fieldset>
            <legend className="text-sm font-semibold text-stone-900">Quantity</legend>
            <div className="mt-1 flex items-center rounded-lg border border-stone-300 bg-white">
              <button
                type="button"
                aria-label="Decrease quantity"
                disabled={shownQuantity <= MIN_QUANTITY}
                onClick={() => setQuantity(Math.max(MIN_QUANTITY, shownQuantity - 1))}
                className="grid size-11 place-items-center rounded-l-lg text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:text-stone-400 disabled:hover:bg-transparent"
              >
                <MinusIcon />
              </button>
              <output aria-live="polite" className="tabular w-12 text-center text-base font-semibold">
                {shownQuantity}
              </output>
              <button
                type="button"
                aria-label="Increase quantity"
                disabled={shownQuantity >= max}
                onClick={() => setQuantity(Math.min(max, shownQuantity + 1))}
                className="grid size-11 place-items-center rounded-r-lg text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:text-stone-400 disabled:hover:bg-transparent"
              >
                <PlusIcon />
              </button>
            </div>
          </fieldset>
          <p className="text-right">
            <span className="block text-sm text-stone-600">Total</span>
            <span className="tabular text-2xl font-bold text-stone-950">{formatRand(unitCents * shownQuantity)}</span>
          </p>
        </div>

        <Button
          size="lg"
          disabled={product.outOfStock}
          onClick={() => {
            const outcome = addToCart(product, size, shownQuantity);
            if (outcome === "refused") return;
            setPicked(null);
            setQuantity(MIN_QUANTITY);
            onAdded();
          }}
          className="w-full"
        >
          {addButtonLabel(product, size, false)}
        </Button>

        <ul className="grid gap-2 border-t border-stone-100 pt-4 text-sm text-stone-600">
          <li className="flex items-center gap-2">
            <TruckIcon className="size-5 shrink-0 text-brand-700" />
            Free delivery on orders of {FREE_DELIVERY_FROM_TEXT} or more, delivered in 2-5 business days
          </li>
          <li className="flex items-center gap-2">
            <ShieldIcon className="size-5 shrink-0 text-brand-700" />
            Secure payment with PayFast (card and instant EFT)
          </li>
        </ul>
      </div>
    </div>
  );
}
