import { lazy, type RefObject, Suspense, useEffect, useId, useRef, useState } from "react";
import { productPath } from "#domain/catalog.js";
import { perUnitText, priceText } from "#domain/packs.js";
import { percentText } from "#domain/percent.js";
import type { Product } from "#domain/schemas/catalog.js";
import { Button } from "#web/components/ui/button.js";
import { ProductImage } from "#web/components/ui/product-image.js";
import { useAddToCart } from "../cart";
import { CategoryBadge } from "./category-badge";
import { useRecommendedSize } from "./size-finder-store";
import { LowStockNote } from "./stock-note";

/** The alert form, loaded on the first click of a card's "E-mail me when it's back". */
const BackInStock = lazy(() => import("./back-in-stock"));
/** The nappy plan's chooser, loaded on the first click of a card's "Deliver every few weeks" (decision 050). */
const PlanOption = lazy(() => import("../plans").then((plans) => plans.loadPlanOption()));

/** How long the button reads "Added!" after a successful add (docs/product.md §9). */
const ADDED_FEEDBACK_MS = 1500;

/** Cards and the detail show pictures in a square box: the seeded drawings are 400 x 400; photos are cropped to fill it. */
export const IMAGE_SIZE = 400;
/** The card's picture: 7rem beside the text on phones, then a column of the grid (2, 3, then 4 in 72rem). */
const CARD_IMAGE_SIZES = "(min-width: 1280px) 270px, (min-width: 768px) 33vw, (min-width: 640px) 50vw, 112px";

export function addButtonLabel(product: Product, size: string, added: boolean): string {
  if (product.outOfStock) return "Out of Stock";
  if (size && product.sizeOutOfStock[size]) return "Size Unavailable";
  if (added) return "Added!";
  return "Add to Cart";
}

/**
 * Cards past the first row are laid out and painted only as they come near the screen: a cheap
 * phone styles the first screen of a long grid instead of all of it (decision 013). `auto` keeps a
 * card's real height once it has been rendered; before that a stand-in height is used, as close to
 * the real one as it can be, or the page's length changes under the shopper as cards are drawn (a
 * link near the footer moved between press and release). A phone's card is a row about 20.5rem high;
 * from `sm` the card stacks a square photo as wide as its column (the list item is a container, so
 * 100cqw is that width) over about 21.5rem of text (both with the plan's "Deliver every few weeks"). On the card itself, not its list item: the
 * paint containment this brings leaves the card's own shadow unclipped.
 */
const OFFSCREEN_UNTIL_NEEDED =
  "[content-visibility:auto] [contain-intrinsic-size:auto_20.5rem] sm:[contain-intrinsic-size:auto_calc(100cqw+21.5rem)]";

/**
 * Chromium's autofill looks at every form control on the page whenever controls come and go, and
 * to see whether one is visible it lays out the card around it even where content-visibility would
 * skip the card: 33 size menus cost a phone about 300 ms in one task, as if no card were skipped
 * (decision 032). So a card past the first row gets its size menu when it comes within a screen of
 * the viewport; until then it shows this stand-in, drawn as the menu is, with the same size.
 */
function SizeMenuStandIn({ id, text, disabled }: { id: string; text: string; disabled: boolean }) {
  return (
    <span
      id={id}
      className={`select-native flex min-w-0 flex-[1_1_8rem] items-center ${disabled ? "bg-stone-100 text-stone-600" : ""}`}
    >
      <span className="truncate">{text}</span>
    </span>
  );
}

/** True once the element has come within a screen's height of the viewport (or at once when `already`). */
function useNearScreen(ref: RefObject<HTMLElement | null>, already: boolean): boolean {
  const [near, setNear] = useState(already);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { rootMargin: "100% 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near]);
  return near;
}

const sizeOptionText = (product: Product, size: string) =>
  product.sizeOutOfStock[size] ? `${size} (Out of Stock)` : size;

interface ProductCardProps {
  product: Product;
  /** Cards of the first row load their image at once and are rendered at once; the rest as they come near the screen. */
  eager: boolean;
  onOpenDetail: (product: Product) => void;
}

export function ProductCard({ product, eager, onOpenDetail }: ProductCardProps) {
  const [picked, setPicked] = useState<string | null>(null);
  // The size finder's answer preselects the size until the shopper picks one (decision 046).
  const recommended = useRecommendedSize(product);
  const size = picked ?? recommended ?? product.sizes[0] ?? "";
  // Until a size is picked or recommended the card shows the "from" price (docs/decisions/022-prices-per-size.md).
  const shown = picked ?? recommended;
  const unit = perUnitText(product, shown);
  const [added, setAdded] = useState(false);
  const [alertOpen, setAlertOpen] = useState(false);
  const [planOpen, setPlanOpen] = useState(false);
  const addToCart = useAddToCart();
  const cardRef = useRef<HTMLElement>(null);
  const nearScreen = useNearScreen(cardRef, eager);
  const id = useId();
  const nameId = `${id}-name`;
  const sizeId = `${id}-size`;
  const stockNoteId = `${id}-stock`;

  useEffect(() => {
    if (!added) return;
    const timer = setTimeout(() => setAdded(false), ADDED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [added]);

  const label = addButtonLabel(product, size, added);
  const unavailable = product.outOfStock || Boolean(product.sizeOutOfStock[size]);
  const promo = product.promoText?.trim();
  const left = unavailable ? undefined : product.sizeLowStock[size];

  return (
    <article
      ref={cardRef}
      aria-labelledby={nameId}
      className={`group flex h-full flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm transition-shadow duration-150 hover:shadow-md ${eager ? "" : OFFSCREEN_UNTIL_NEEDED}`}
    >
      {/* Image, badge, name and price form one target: the name's button stretches over them. */}
      <div className="relative flex gap-4 p-3 sm:block sm:p-0">
        <div className="aspect-square w-28 shrink-0 overflow-hidden rounded-xl bg-sand-100 sm:w-full sm:rounded-none">
          <ProductImage
            src={product.image}
            alt={product.name}
            width={IMAGE_SIZE}
            height={IMAGE_SIZE}
            sizes={CARD_IMAGE_SIZES}
            eager={eager}
            className={`size-full object-cover transition-transform duration-200 ${
              product.outOfStock ? "opacity-60 grayscale" : "group-hover:scale-[1.02]"
            }`}
          />
        </div>
        <div className="min-w-0 flex-1 sm:px-4 sm:pt-4">
          <div className="flex flex-wrap gap-1.5">
            <CategoryBadge category={product.category} />
            {product.outOfStock && (
              <span className="inline-flex items-center rounded-full border border-stone-400 bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-800">
                Currently unavailable
              </span>
            )}
          </div>
          <h3 id={nameId} className="mt-2 text-base leading-snug font-semibold text-stone-950">
            {product.outOfStock ? (
              product.name
            ) : (
              // A real link: it works without JavaScript and in a new tab; a plain click opens the dialog over the grid.
              <a
                href={productPath(product.slug)}
                onClick={(event) => {
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                  event.preventDefault();
                  onOpenDetail(product);
                }}
                className="text-left after:absolute after:inset-0 after:rounded-t-2xl after:content-[''] hover:text-brand-800 hover:underline focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-brand-700"
              >
                {product.name}
              </a>
            )}
          </h3>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <p className="tabular text-lg font-bold text-stone-950">{priceText(product, shown)}</p>
            {promo && <p className="rounded-md bg-red-700 px-2 py-1 text-xs font-semibold text-white">{promo}</p>}
          </div>
          {unit && <p className="tabular mt-1 text-sm text-stone-600">{unit}</p>}
          {/* The tiers as the server worded them (the product page: multibuy-tiers.tsx). */}
          {product.multibuyNote && <p className="mt-1 text-sm text-brand-800">{product.multibuyNote.line}</p>}
        </div>
      </div>

      <div className="mt-auto grid gap-3 p-3 pt-0 sm:p-4">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <label htmlFor={sizeId} className="text-sm font-medium text-stone-700">
            Size
          </label>
          {nearScreen ? (
            <select
              id={sizeId}
              value={size}
              onChange={(event) => setPicked(event.target.value)}
              disabled={product.outOfStock}
              aria-describedby={left ? stockNoteId : undefined}
              className="select-native min-w-0 flex-[1_1_8rem] disabled:bg-stone-100 disabled:text-stone-600"
            >
              {product.sizes.map((option) => (
                <option key={option} value={option}>
                  {sizeOptionText(product, option)}
                </option>
              ))}
            </select>
          ) : (
            <SizeMenuStandIn id={sizeId} text={sizeOptionText(product, size)} disabled={product.outOfStock} />
          )}
          <LowStockNote id={stockNoteId} left={left} className="shrink-0" />
        </div>
        {!unavailable &&
          (planOpen ? (
            <Suspense fallback={<p className="text-sm text-stone-600">Loading...</p>}>
              <PlanOption savingBp={product.planSavingBp} compact focusOnMount />
            </Suspense>
          ) : (
            <button
              type="button"
              onClick={() => setPlanOpen(true)}
              className="min-h-11 justify-self-start text-left text-sm font-medium text-brand-800 underline decoration-brand-600/40 decoration-2 underline-offset-4 hover:decoration-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              {/* The server sends the product's saving or the owner's default (src/domain/plans.ts). */}
              Deliver every few weeks{product.planSavingBp ? ` and save ${percentText(product.planSavingBp)}` : ""}
            </button>
          ))}
        <Button
          size="md"
          variant={added ? "confirm" : "primary"}
          disabled={unavailable || added}
          onClick={() => {
            if (addToCart(product, size, 1) === "added") setAdded(true);
          }}
          className="w-full"
        >
          {label}
        </Button>
        {unavailable &&
          (alertOpen ? (
            <Suspense fallback={<p className="text-sm text-stone-600">Loading...</p>}>
              <BackInStock product={product} size={size} submitAtOnce />
            </Suspense>
          ) : (
            <button
              type="button"
              onClick={() => setAlertOpen(true)}
              className="min-h-11 text-sm font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              E-mail me when it's back
            </button>
          ))}
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white">
      <div className="flex gap-4 p-3 sm:block sm:p-0">
        <div className="skeleton aspect-square w-28 shrink-0 rounded-xl bg-sand-200 sm:w-full sm:rounded-none" />
        <div className="grid flex-1 content-start gap-3 sm:px-4 sm:pt-4">
          <div className="skeleton h-5 w-16 rounded-full bg-sand-200" />
          <div className="skeleton h-5 w-4/5 rounded bg-sand-200" />
          <div className="skeleton h-6 w-24 rounded bg-sand-200" />
        </div>
      </div>
      <div className="grid gap-3 p-3 pt-0 sm:p-4">
        <div className="skeleton h-11 rounded-lg bg-sand-100" />
        <div className="skeleton h-11 w-3/5 rounded-lg bg-sand-100" />
        <div className="skeleton h-11 rounded-lg bg-sand-200" />
      </div>
    </div>
  );
}
