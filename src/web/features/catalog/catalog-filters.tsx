import { lazy, Suspense, useState } from "react";
import type { CatalogFilter, SortBy, SortOrder } from "#domain/catalog.js";
import type { Category } from "#domain/schemas/catalog.js";
import { SearchIcon } from "#web/components/ui/icons.js";
import { categoryLabel } from "#web/lib/format.js";

interface CatalogFiltersProps {
  filter: CatalogFilter;
  categories: readonly Category[];
  onChange: (patch: Partial<CatalogFilter>) => void;
}

/** Opened by the shopper: not part of the first load (docs/decisions/048-shop-by-size.md). */
const ShopBySize = lazy(() => import("./shop-by-size"));
const SHOP_BY_SIZE_ID = "shop-by-size";

const chipClass = (pressed: boolean) =>
  `inline-flex min-h-11 shrink-0 items-center rounded-full border px-4 text-sm font-semibold transition-colors duration-150 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
    pressed
      ? "border-brand-700 bg-brand-700 text-white"
      : "border-stone-300 bg-white text-stone-800 hover:border-brand-700 hover:text-brand-800"
  }`;

/** Search box, category chips (All + one per category), sort and order. */
export function CatalogFilters({ filter, categories, onChange }: CatalogFiltersProps) {
  // How many size filters narrow the grid: said on the button, and the panel open from the start.
  const sizeFilters = +(filter.weightGrams !== null) + +(filter.size !== null) + +(filter.absorbency !== null);
  const [sizeOpen, setSizeOpen] = useState(sizeFilters > 0);
  return (
    <div className="grid gap-4">
      <div className="grid gap-3 md:grid-cols-[minmax(0,1fr)_auto_auto] md:items-end">
        <div>
          <label htmlFor="product-search" className="text-sm font-medium text-stone-700">
            Search products
          </label>
          <div className="relative mt-1">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-stone-500" />
            <input
              id="product-search"
              type="search"
              value={filter.search}
              onChange={(event) => onChange({ search: event.target.value })}
              placeholder="Nappies, pads, wipes..."
              autoComplete="off"
              className="min-h-11 w-full rounded-lg border border-stone-300 bg-white py-2 pr-3 pl-10 text-base text-stone-900 placeholder:text-stone-500 hover:border-stone-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 sm:text-sm"
            />
          </div>
        </div>
        <div className="grid grid-cols-2 gap-3 md:contents">
          <div>
            <label htmlFor="product-sort" className="text-sm font-medium text-stone-700">
              Sort by
            </label>
            <select
              id="product-sort"
              value={filter.sortBy}
              onChange={(event) => onChange({ sortBy: event.target.value as SortBy })}
              className="select-native mt-1 md:w-44"
            >
              <option value="name">Alphabetical</option>
              <option value="price">Price</option>
              <option value="unit">Price per unit</option>
            </select>
          </div>
          <div>
            <label htmlFor="product-order" className="text-sm font-medium text-stone-700">
              Order
            </label>
            <select
              id="product-order"
              value={filter.order}
              onChange={(event) => onChange({ order: event.target.value as SortOrder })}
              className="select-native mt-1 md:w-44"
            >
              <option value="asc">Low to High</option>
              <option value="desc">High to Low</option>
            </select>
          </div>
        </div>
      </div>

      <fieldset className="min-w-0">
        <legend className="sr-only">Category</legend>
        <div className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
          <button
            type="button"
            aria-pressed={filter.category === null}
            onClick={() => onChange({ category: null })}
            className={chipClass(filter.category === null)}
          >
            All
          </button>
          {categories.map((category) => (
            <button
              key={category.id}
              type="button"
              aria-pressed={filter.category === category.name}
              onClick={() => onChange({ category: category.name })}
              className={chipClass(filter.category === category.name)}
            >
              {categoryLabel(category.name)}
            </button>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-3">
        <button
          type="button"
          aria-expanded={sizeOpen}
          aria-controls={SHOP_BY_SIZE_ID}
          onClick={() => setSizeOpen((open) => !open)}
          className={`${chipClass(sizeOpen)} justify-self-start`}
        >
          Shop by size{sizeFilters ? ` (${sizeFilters})` : ""}
        </button>
        {sizeOpen && (
          <Suspense fallback={null}>
            <ShopBySize id={SHOP_BY_SIZE_ID} filter={filter} onChange={onChange} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
