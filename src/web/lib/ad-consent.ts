/**
 * The shopper's answer to the ad-measurement notice (POPIA s69 and the no-surprises rule: the ad
 * service's tag loads only after "Allow"), remembered in this browser. Nothing here loads anything.
 */
export type AdConsent = "granted" | "denied";

const STORAGE_KEY = "ad_consent";
const listeners = new Set<(consent: AdConsent) => void>();

export function readAdConsent(): AdConsent | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === "granted" || stored === "denied" ? stored : null;
  } catch {
    return null;
  }
}

export function writeAdConsent(consent: AdConsent): void {
  try {
    localStorage.setItem(STORAGE_KEY, consent);
  } catch {
    // Without storage the answer holds for this page only; the notice asks again next time.
  }
  for (const listener of [...listeners]) listener(consent);
}

/** Calls `listener` with the shopper's answer when they give it on this page; returns the unsubscribe. */
export function onAdConsent(listener: (consent: AdConsent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
