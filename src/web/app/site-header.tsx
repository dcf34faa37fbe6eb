import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { Button } from "../components/ui/button";
import { CartIcon, CloseIcon, LogoutIcon, MenuIcon, UserIcon } from "../components/ui/icons";
import { Logo } from "../components/ui/logo";
import { toast } from "../components/ui/toast";
import { useSession } from "../features/account";
import { useCart } from "../features/cart";
import { useCatalog } from "../features/catalog";
import { publicConfig } from "../lib/public-config";
import { loadAboutDialog, loadCartSheet, loadLoginDialog, loadRequestsDialog } from "./lazy-dialogs";

/** The phone's menu panel loads when first opened (or pressed): it is not part of the first paint. */
const loadMobileMenu = () => import("./mobile-menu");
const MobileMenu = lazy(loadMobileMenu);

const navLinkClass =
  "inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700";

/** The sticky header: logo, main navigation, account, cart, and the mobile menu. */
export function SiteHeader({ onAbout, onRequests }: { onAbout: () => void; onRequests: () => void }) {
  const { user, userId, restoring, isAdmin, signOut, setLoginOpen } = useSession();
  // A stored id whose profile is still loading: no Login button flashing before the name.
  const waitingForProfile = !user && Boolean(userId) && restoring;
  const { count, setOpen: setCartOpen } = useCart();
  const { goToProducts } = useCatalog();
  const [location, navigate] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // The mobile menu closes on navigation, on Escape (returning focus to its button) and above 768px.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes whenever the location changes
  useEffect(() => setMenuOpen(false), [location]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    const wide = window.matchMedia("(min-width: 768px)");
    const onWide = () => wide.matches && setMenuOpen(false);
    document.addEventListener("keydown", onKey);
    wide.addEventListener("change", onWide);
    return () => {
      document.removeEventListener("keydown", onKey);
      wide.removeEventListener("change", onWide);
    };
  }, [menuOpen]);

  const goHome = () => {
    if (location === "/") window.scrollTo({ top: 0 });
  };
  const logOut = async () => {
    await signOut();
    toast({ title: "Logged out", description: "You have been logged out." });
    if (location === "/profile" || location === "/admin") navigate("/");
  };
  const productsLink = (className: string, after?: () => void) => (
    // biome-ignore lint/a11y/useValidAnchor: a real link to the products (works without JS); the click scrolls in-app
    <a
      href="/#products"
      className={className}
      onClick={(event) => {
        event.preventDefault();
        after?.();
        goToProducts();
      }}
    >
      Products
    </a>
  );
  const cartLabel = `Cart, ${count} ${count === 1 ? "item" : "items"}`;

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4">
        <Link
          href="/"
          onClick={goHome}
          className="-ml-1 rounded-lg p-1 focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          <Logo name={publicConfig.name} />
        </Link>

        <nav aria-label="Main" className="ml-6 hidden md:block">
          <ul className="flex items-center gap-1">
            <li>
              <Link href="/" onClick={goHome} className={navLinkClass}>
                Home
              </Link>
            </li>
            <li>{productsLink(navLinkClass)}</li>
            <li>
              <button
                type="button"
                className={navLinkClass}
                onClick={onAbout}
                onPointerEnter={() => void loadAboutDialog()}
              >
                About Us
              </button>
            </li>
            <li>
              <button
                type="button"
                className={navLinkClass}
                onClick={onRequests}
                onPointerEnter={() => void loadRequestsDialog()}
              >
                Requests
              </button>
            </li>
            {isAdmin && (
              <li>
                <Link href="/admin" className={navLinkClass}>
                  Admin
                </Link>
              </li>
            )}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1">
          <div className="hidden items-center gap-1 md:flex">
            {user ? (
              <>
                <Link href="/profile" className={`${navLinkClass} gap-2`}>
                  <UserIcon className="size-5 text-brand-700" />
                  <span className="max-w-40 truncate">{user.fullName}</span>
                </Link>
                <Button variant="ghost" size="icon" aria-label="Log out" title="Log out" onClick={logOut}>
                  <LogoutIcon />
                </Button>
              </>
            ) : waitingForProfile ? null : (
              <Button
                variant="outline"
                onClick={() => setLoginOpen(true)}
                onPointerEnter={() => void loadLoginDialog()}
              >
                <UserIcon className="size-5" />
                Login
              </Button>
            )}
          </div>

          <button
            type="button"
            aria-label={cartLabel}
            onClick={() => setCartOpen(true)}
            onPointerEnter={() => void loadCartSheet()}
            className="relative grid size-11 place-items-center rounded-lg text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <CartIcon className="size-6" />
            <span
              aria-hidden="true"
              className={`tabular absolute top-0.5 right-0 grid h-5 min-w-5 place-items-center rounded-full px-1 text-xs font-bold ${
                count > 0 ? "bg-brand-700 text-white" : "bg-stone-200 text-stone-800"
              }`}
            >
              {count > 99 ? "99+" : count}
            </span>
          </button>

          <button
            ref={menuButton}
            type="button"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
            onPointerDown={() => void loadMobileMenu()}
            className="grid size-11 place-items-center rounded-lg text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 md:hidden"
          >
            {menuOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </div>
      </div>

      {menuOpen && (
        <Suspense fallback={null}>
          <MobileMenu
            user={user}
            waitingForProfile={waitingForProfile}
            isAdmin={isAdmin}
            onClose={() => setMenuOpen(false)}
            onHome={goHome}
            onAbout={onAbout}
            onRequests={onRequests}
            onLogin={() => setLoginOpen(true)}
            onLogOut={() => void logOut()}
            productsLink={productsLink}
          />
        </Suspense>
      )}
    </header>
  );
}
