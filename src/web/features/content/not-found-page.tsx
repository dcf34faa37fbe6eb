import { Link } from "wouter";
import { buttonClass } from "#web/components/ui/button.js";
import { LogoMark } from "#web/components/ui/logo.js";
import { usePageTitle } from "#web/lib/use-page-title.js";

/** Every unknown path, and /profile for a guest (docs/product.md §2). */
export function NotFoundPage() {
  usePageTitle("404 Page Not Found");
  return (
    <section className="mx-auto flex min-h-[55vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <span className="grid size-16 place-items-center rounded-full bg-brand-50 text-brand-700">
        <LogoMark className="size-9" />
      </span>
      <h1 className="mt-6 text-3xl font-bold text-stone-950">404 Page Not Found</h1>
      <p className="mt-3 text-stone-700">
        Sorry, we couldn't find that page. It may have moved, or the address may be mistyped.
      </p>
      <Link href="/" className={buttonClass({ size: "lg", className: "mt-8" })}>
        Back to Store
      </Link>
    </section>
  );
}

// The router loads it lazily as the page for every unknown path (src/web/app/App.tsx).
export default NotFoundPage;
