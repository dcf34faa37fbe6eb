import { useId } from "react";
import { Link } from "wouter";
import { categoryPath, categoryTitle } from "../../../domain/catalog";
import type { Product } from "../../../domain/schemas/catalog";
import { usePageTitle } from "../../lib/use-page-title";
import { NotFoundPage } from "../content";
import { useProducts } from "./api/get-products";
import { ProductDetail } from "./product-detail";

/**
 * A product's own page, /products/{slug}: the same detail as the dialog over the grid, for a
 * shared link, a search result or a reload. The server renders it (src/server/pages/).
 */
export default function ProductPage({ slug }: { slug: string }) {
  const products = useProducts();
  if (products.isPending) {
    return (
      <div className="mx-auto grid min-h-[50vh] max-w-6xl place-items-center px-4" role="status">
        <span className="text-stone-600">Loading...</span>
      </div>
    );
  }
  const product = products.data?.find((candidate) => candidate.slug === slug);
  if (!product) return <NotFoundPage />;
  return <ProductArticle product={product} />;
}

function ProductArticle({ product }: { product: Product }) {
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
        <ProductDetail product={product} descriptionId={`${id}-description`} onAdded={() => {}} eager />
      </article>
      <p className="mt-8 text-center">
        <Link href="/" className="font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900">
          See all our products
        </Link>
      </p>
    </div>
  );
}
