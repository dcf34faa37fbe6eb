import { lazy, type ReactNode, Suspense, useCallback, useLayoutEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { useHistoryState } from "wouter/use-browser-location";
import { useSession } from "../features/account";
import { useCart } from "../features/cart";
import { CatalogProvider, isOverGrid, useCatalog } from "../features/catalog";
import { SiteFooter } from "../features/content/site-footer";
import { publicConfig } from "../lib/public-config";
import { loadAboutDialog, loadCartSheet, loadLoginDialog, loadRequestsDialog } from "./lazy-dialogs";
import { SiteHeader } from "./site-header";
import { TestModeNotice } from "./test-mode-notice";

const LoginDialog = lazy(loadLoginDialog);
const CartSheet = lazy(loadCartSheet);
const AboutDialog = lazy(loadAboutDialog);
const RequestsDialog = lazy(loadRequestsDialog);
// Only a shop that reports ad conversions asks about them; the others never download the notice.
const AdConsentNotice = lazy(() => import("./ad-consent-notice"));

type SiteDialog = "about" | "requests";

/** True from the first time `value` is true: a lazy dialog stays mounted afterwards so it can animate closed. */
function useOnceTrue(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  if (value && !seen) setSeen(true);
  return seen || value;
}

const DEFAULT_TITLE = `${publicConfig.name} | Nappies, period care and more, delivered across South Africa`;

/**
 * A new page starts at the top, under the shop's default title. A layout effect runs before the
 * pages' own effects, so a page can still set its title, and the storefront can still scroll to
 * its products when a shortcut asked for that.
 */
function useFreshPageOnNavigation() {
  const [location] = useLocation();
  const overGrid = isOverGrid(useHistoryState());
  const previous = useRef<{ location: string; overGrid: boolean } | null>(null);
  useLayoutEffect(() => {
    const before = previous.current;
    if (before?.location === location) return;
    previous.current = { location, overGrid };
    document.title = DEFAULT_TITLE;
    // Opening a product over the grid, or closing it, keeps the grid where it was.
    if (before && !overGrid && !before.overGrid) window.scrollTo({ top: 0, behavior: "instant" });
  }, [location, overGrid]);
}

/** Header, main and footer around every page, and the dialogs any page can open. */
export function Layout({ children }: { children: ReactNode }) {
  const [dialog, setDialog] = useState<SiteDialog | null>(null);
  const openAbout = useCallback(() => setDialog("about"), []);
  const openRequests = useCallback(() => setDialog("requests"), []);
  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };
  const { loginOpen } = useSession();
  const { open: cartOpen } = useCart();
  const showLogin = useOnceTrue(loginOpen);
  const showCart = useOnceTrue(cartOpen);
  const showAbout = useOnceTrue(dialog === "about");
  const showRequests = useOnceTrue(dialog === "requests");
  useFreshPageOnNavigation();

  return (
    <CatalogProvider onLearnMore={openAbout}>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-[60] rounded-lg bg-white px-4 py-3 font-semibold text-brand-800 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <TestModeNotice />
        <SiteHeader onAbout={openAbout} onRequests={openRequests} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <Footer onAbout={openAbout} onRequests={openRequests} />
      </div>
      {showAbout && (
        <Suspense fallback={null}>
          <AboutDialog open={dialog === "about"} onOpenChange={closeDialog} />
        </Suspense>
      )}
      {showRequests && (
        <Suspense fallback={null}>
          <RequestsDialog open={dialog === "requests"} onOpenChange={closeDialog} />
        </Suspense>
      )}
      {showLogin && (
        <Suspense fallback={null}>
          <LoginDialog />
        </Suspense>
      )}
      {showCart && (
        <Suspense fallback={null}>
          <CartSheet />
        </Suspense>
      )}
      {publicConfig.adConversionId && (
        <Suspense fallback={null}>
          <AdConsentNotice />
        </Suspense>
      )}
    </CatalogProvider>
  );
}

function Footer({ onAbout, onRequests }: { onAbout: () => void; onRequests: () => void }) {
  const { goToProducts, showCategory } = useCatalog();
  return <SiteFooter onProducts={goToProducts} onCategory={showCategory} onAbout={onAbout} onRequests={onRequests} />;
}
