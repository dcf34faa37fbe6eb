import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "./config.js";

/** The security headers of the shop's answers, each set built once at start. */
export interface SecurityHeaders {
  /** Pages, the PayFast emulator and static assets: everything a browser may render. */
  page: Readonly<Record<string, string>>;
  /** JSON answers under /api/: only what protects a response that is never rendered as a page. */
  api: Readonly<Record<string, string>>;
  /** The set for an answer to `url`: `api` under /api/, `page` for everything else. */
  forUrl(url: string): Readonly<Record<string, string>>;
}

export function securityHeaders(config: Config): SecurityHeaders {
  const page = helmetHeaders(helmetOptions(config));
  // OWASP's REST Security Cheat Sheet: the headers that matter for API responses. The rest of
  // helmet's set (referrer policy, COOP, DNS prefetch, legacy IE and Flash switches) only
  // affects documents, and each header costs every answer about a microsecond to validate and
  // write, which a cached catalogue read feels (docs/decisions/005-hot-path-costs.md).
  const api: Record<string, string> = {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "cross-origin-resource-policy": "same-origin",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
  };
  const hsts = page["strict-transport-security"];
  if (hsts) api["strict-transport-security"] = hsts;
  const frozenApi = Object.freeze(api);
  return { page, api: frozenApi, forUrl: (url) => (url.startsWith("/api/") ? frozenApi : page) };
}

/**
 * helmet's headers as a table. With no per-request nonce they never change, so running helmet's
 * middlewares on each request (setHeader by setHeader) only repeated the same work.
 */
function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * Where the checkout form's post may go, redirects included: browsers check CSP form-action
 * against every hop of a form submission's redirect chain (docs/payfast.md §5, "Where the shopper's
 * browser goes"). Live PayFast answers the post to www.payfast.co.za with a redirect to
 * payment.payfast.io; the sandbox redirects within sandbox.payfast.co.za; the local emulator is
 * served by the shop itself ('self') and may redirect to a second origin that stands in for
 * payment.payfast.io.
 */
function payfastFormTargets(config: Config): string[] {
  switch (config.payfast.mode) {
    case "live":
      return ["https://www.payfast.co.za", "https://payment.payfast.io"];
    case "sandbox":
      return ["https://sandbox.payfast.co.za"];
    default: {
      const { emulatorPaymentOrigin } = config.payfast;
      return emulatorPaymentOrigin ? [emulatorPaymentOrigin] : [];
    }
  }
}

/**
 * Security headers: a CSP with no inline script (the ad-conversion tag, when configured, loads
 * from its own file and Google's hosts), no framing, no MIME sniffing, a strict referrer policy,
 * and HSTS when the shop is served over https.
 */
function helmetOptions(config: Config): HelmetOptions {
  const payfastHosts = payfastFormTargets(config);
  // Google's documented hosts for the Google Ads conversion tag (gtag.js).
  const ads = config.adConversionId
    ? {
        scripts: ["https://www.googletagmanager.com", "https://www.googleadservices.com", "https://www.google.com"],
        connect: [
          "https://www.google.com",
          "https://www.googleadservices.com",
          "https://googleads.g.doubleclick.net",
          "https://www.google-analytics.com",
        ],
        frames: ["https://www.googletagmanager.com", "https://td.doubleclick.net"],
      }
    : { scripts: [], connect: [], frames: [] };
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", ...ads.scripts],
        "script-src-attr": ["'none'"],
        // Radix injects small <style> elements (scroll locking); styles cannot run code.
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "https:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...ads.connect],
        // 'self': the admin shows an e-mail in a sandboxed iframe (/api/admin/emails/{id}/html).
        "frame-src": ["'self'", ...ads.frames],
        "form-action": ["'self'", ...payfastHosts],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
        ...(config.secureCookies ? { "upgrade-insecure-requests": [] } : {}),
      },
    },
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: "deny" as const },
    // Not sent: X-Download-Options only ever mattered to Internet Explorer 8, X-XSS-Protection
    // switched off a filter no current browser has (helmet sends "0"), and X-DNS-Prefetch-Control
    // is a speed switch, not a protection. Every header costs every page answer about 0.2 µs to
    // validate and write, of ~35 µs for a cached page (docs/decisions/005-hot-path-costs.md).
    xDownloadOptions: false,
    xXssProtection: false,
    xDnsPrefetchControl: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" as const },
    crossOriginEmbedderPolicy: false,
  };
}
