import { useEffect, useState } from "react";
import { AD_CONSENT_NOTICE } from "#domain/consent.js";
import { Button } from "../components/ui/button";
import { type AdConsent, readAdConsent, writeAdConsent } from "../lib/ad-consent";

/**
 * The ad-measurement question, asked only when the shop reports conversions (AD_CONVERSION_ID): a
 * small bar at the foot of the window that covers nothing important and blocks nothing. "Allow"
 * and "No thanks" look alike and sit side by side; the answer is remembered in this browser.
 * Loaded lazily by the layout, so a shop without the setting never downloads it.
 */
export default function AdConsentNotice() {
  // Read after mounting: the server-rendered page knows nothing of this browser's answer.
  const [answer, setAnswer] = useState<AdConsent | null | undefined>(undefined);
  useEffect(() => setAnswer(readAdConsent()), []);
  if (answer !== null) return null;

  const choose = (consent: AdConsent) => {
    writeAdConsent(consent);
    setAnswer(consent);
  };
  return (
    <section
      aria-labelledby="ad-consent-title"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white/95 shadow-[0_-4px_16px_rgba(0,0,0,0.08)] backdrop-blur"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:gap-6">
        <div className="min-w-0 flex-1 text-sm text-stone-700">
          <h2 id="ad-consent-title" className="font-semibold text-stone-950">
            {AD_CONSENT_NOTICE.title}
          </h2>
          <p className="mt-0.5">
            {AD_CONSENT_NOTICE.text}{" "}
            <a href="/privacy" className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
              Privacy Policy
            </a>
          </p>
        </div>
        <div className="grid shrink-0 grid-cols-2 gap-2 sm:w-64">
          <Button variant="outline" onClick={() => choose("denied")}>
            {AD_CONSENT_NOTICE.decline}
          </Button>
          <Button variant="outline" onClick={() => choose("granted")}>
            {AD_CONSENT_NOTICE.allow}
          </Button>
        </div>
      </div>
    </section>
  );
}
