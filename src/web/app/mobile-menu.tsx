import type { ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "../components/ui/button";
import { LogoutIcon, UserIcon } from "../components/ui/icons";

const mobileLinkClass =
  "flex min-h-12 w-full items-center rounded-lg px-3 text-left text-base font-medium text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700";

interface MobileMenuProps {
  user: { fullName: string } | null;
  /** A stored id whose profile is still loading: neither the name nor Login yet. */
  waitingForProfile: boolean;
  isAdmin: boolean;
  onClose: () => void;
  onHome: () => void;
  onAbout: () => void;
  onRequests: () => void;
  onLogin: () => void;
  onLogOut: () => void;
  /** The header's Products link (a real link that scrolls in-app), in this menu's style. */
  productsLink: (className: string, after?: () => void) => ReactNode;
}

/**
 * The header's menu on a phone, below the header bar. Loaded on first opening (site-header.tsx):
 * every choice closes it.
 */
export default function MobileMenu(props: MobileMenuProps) {
  const { user, waitingForProfile, isAdmin, onClose } = props;
  /** Runs a menu action and closes the menu. */
  const fromMenu = (action: () => void) => () => {
    onClose();
    action();
  };
  return (
    <nav id="mobile-menu" aria-label="Main" className="menu-panel border-t border-stone-200 bg-white md:hidden">
      <ul className="mx-auto grid max-w-6xl gap-1 px-4 py-3">
        <li>
          <Link href="/" onClick={fromMenu(props.onHome)} className={mobileLinkClass}>
            Home
          </Link>
        </li>
        <li>{props.productsLink(mobileLinkClass, onClose)}</li>
        <li>
          <button type="button" className={mobileLinkClass} onClick={fromMenu(props.onAbout)}>
            About Us
          </button>
        </li>
        <li>
          <button type="button" className={mobileLinkClass} onClick={fromMenu(props.onRequests)}>
            Requests
          </button>
        </li>
        {isAdmin && (
          <li>
            <Link href="/admin" className={mobileLinkClass}>
              Admin
            </Link>
          </li>
        )}
        <li className="mt-2 border-t border-stone-100 pt-3">
          {user ? (
            <div className="flex items-center gap-2">
              <Link href="/profile" className={`${mobileLinkClass} gap-2`}>
                <UserIcon className="size-5 text-brand-700" />
                <span className="truncate">{user.fullName}</span>
              </Link>
              <Button variant="outline" size="icon" aria-label="Log out" onClick={fromMenu(props.onLogOut)}>
                <LogoutIcon />
              </Button>
            </div>
          ) : waitingForProfile ? null : (
            <Button variant="outline" className="w-full" onClick={fromMenu(props.onLogin)}>
              <UserIcon className="size-5" />
              Login
            </Button>
          )}
        </li>
      </ul>
    </nav>
  );
}
