import { InfoIcon } from "../components/ui/icons";
import { publicConfig } from "../lib/public-config";

/**
 * A slim bar above the header on every page while PayFast runs in a test mode (the local emulator
 * or the sandbox), so nobody mistakes a practice payment for a real one. Nothing in live mode.
 * It scrolls away with the page, leaving the sticky header as slim as ever.
 */
export function TestModeNotice() {
  if (!publicConfig.testPayments) return null;
  return (
    <aside aria-label="Test mode" className="border-b border-amber-300 bg-amber-100 text-amber-950">
      <p
        role="note"
        className="mx-auto flex max-w-6xl items-center justify-center gap-2 px-4 py-1.5 text-center text-sm leading-snug"
      >
        <InfoIcon className="size-4 shrink-0" />
        <span>
          <strong className="font-semibold">Test mode:</strong> no real payments are taken.
        </span>
      </p>
    </aside>
  );
}
