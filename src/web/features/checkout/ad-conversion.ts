import { onAdConsent, readAdConsent } from "#web/lib/ad-consent.js";
import { publicConfig } from "#web/lib/public-config.js";

type Gtag = (...args: unknown[]) => void;
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

/**
 * The ad-conversion event on /success (docs/product.md §7). Sent only when the server is
 * configured with AD_CONVERSION_ID and the shopper said "Allow" to the ad-measurement notice
 * (app/ad-consent-notice.tsx): until then no request leaves for the ad service, and after "No
 * thanks" none ever does. An answer given while this page is open sends it then.
 */
export function sendConversion(orderId: string) {
  const id = publicConfig.adConversionId;
  if (!id) return;
  const consent = readAdConsent();
  if (consent === "denied") return;
  if (consent === null) {
    const stop = onAdConsent((answer) => {
      stop();
      if (answer === "granted") sendConversion(orderId);
    });
    return;
  }
  const sentKey = `conversion_sent_${orderId}`;
  try {
    if (sessionStorage.getItem(sentKey)) return;
    sessionStorage.setItem(sentKey, "1");
  } catch {
    // Without sessionStorage a reload may send it twice; the order id lets the ad service de-duplicate.
  }
  if (!window.gtag) {
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself.
      // biome-ignore lint/complexity/noArguments: gtag's queue protocol needs the arguments object
      window.dataLayer?.push(arguments);
    };
    const script = document.createElement("script");
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
    document.head.appendChild(script);
    window.gtag("js", new Date());
    window.gtag("config", id);
  }
  window.gtag("event", "conversion", { send_to: id, transaction_id: orderId });
}
