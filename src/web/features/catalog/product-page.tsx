import { useId } from "react";
import { Link } from "wouter";
import { categoryPath, categoryTitle, productPath } from "#domain/catalog.js";
import { priceText } from "#domain/packs.js";
import type { Product } from "#domain/schemas/catalog.js";
import { ProductImage } from "#web/components/ui/product-image.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { NotFoundPage } from "../content";
import { useProductBySlug } from "./api/get-product-by-slug";
import { IMAGE_SIZE } from "./product-card";
import { ProductDetail } from "./product-detail";

/** Related products: two columns on a phone, four from lg (1024 px) in the page's 64 rem column. */
const RELATED_IMAGE_SIZES = "(min-width: 1024px) 240px, 50vw";

/**
 * A product's own page, /products/{slug}: the same detail as the dialog over the grid, for a
 * shared link, a search result or a reload. The server renders it (src/server/pages/).
 */
export default function ProductPage({ slug }: { slug: string }) {
  const found = useProductBySlug(slug);
  if (found.isPending) {
    return (
      <div className="mx-auto grid min-h-[50vh] max-w-6xl place-items-center px-4" role="status">
        <span className="text-stone-600">Loading...</span>
      </div>
    );
  }
  if (!found.data) return <NotFoundPage />;
  return <ProductArticle key={found.data.product.id} product={found.data.product} related={found.data.related} />;
}

function ProductArticle({ product, related }: { product: Product; related: Product[] }) {
  const id = useId();
  usePageTitle(product.name);
  return (
    <div className="mx-auto max-w-5xl px-4 pt-6 pb-16 sm:pt-8">
      <nav aria-label="Breadcrumb" className="text-sm text-stone-600">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link href="/" className="font-medium text-brand-800 underline-offset-2 hover:underline">
              Home
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link
              href={categoryPath(product.category)}
              className="font-medium text-brand-800 underline-offset-2 hover:underline"
            >
              {categoryTitle(product.category)}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="min-w-0 truncate text-stone-700">
            {product.name}
          </li>
        </ol>
      </nav>
      <article aria-labelledby={`${id}-name`} className="mt-4 rounded-2xl border border-stone-200 bg-white p-5 sm:p-8">
        <h1 id={`${id}-name`} className="mb-6 text-2xl leading-snug font-bold text-stone-950 sm:text-3xl">
          {product.name}
        </h1>
        <ProductDetail
          product={product}
          descriptionId={`${id}-description`}
          onAdded={() => {}}
          eager
          headingLevel={2}
        />
      </article>
      {related.length > 0 && <RelatedProducts product={product} related={related} />}
      <p className="mt-8 text-center">
        <Link href="/" className="font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900">
          See all our products
        </Link>
      </p>
    </div>
  );
}

/** A few others of the product's category: links to their pages, light enough to cost the page little. */
function RelatedProducts({ product, related }: { product: Product; related: Product[] }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="mb-4 text-xl font-bold text-stone-950">
        More {categoryTitle(product.category).toLowerCase()}
      </h2>
      <ul className="grid grid-cols-2 gap-4 sm:gap-5 lg:grid-cols-4">
        {related.map((other) => (
          <li key={other.id}>
            <Link
              href={productPath(other.slug)}
              // Another product's page starts at its top, as a page loaded afresh would.
              onClick={() => window.scrollTo(0, 0)}
              className="group flex h-full flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm transition-shadow duration-150 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              <ProductImage
                src={other.image}
                alt=""
                width={IMAGE_SIZE}
                height={IMAGE_SIZE}
                sizes={RELATED_IMAGE_SIZES}
                className="aspect-square w-full bg-sand-100 object-cover"
              />
              <span className="flex flex-1 flex-col gap-1 p-3">
                <span className="text-sm leading-snug font-semibold text-stone-950 group-hover:underline">
                  {other.name}
                </span>
                <span className="tabular text-sm font-bold text-stone-900">{priceText(other, null)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
