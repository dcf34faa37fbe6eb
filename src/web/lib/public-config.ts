/**
 * The page config src/server/pages/static-files.ts injects into index.html (`pageConfig`): the shop's details
 * (SHOP_* variables), whether payments are test payments, and the ad conversion id. Read once.
 */
export interface PublicConfig {
  name: string;
  email: string;
  phone: string;
  address: string;
  hours: string;
  /**
   * True while PayFast runs in a test mode (local emulator or sandbox): no real money moves, and
   * every page says so. False when live, and when the server did not say (a live shop must never
   * tell shoppers their payment is not real).
   */
  testPayments: boolean;
  /** AD_CONVERSION_ID: set only when the shop reports conversions; otherwise no third-party script loads. */
  adConversionId: string | null;
  /** The seller's legal name and status ("Snug & Dry Demo Trading (Pty) Ltd"), and its registration number if any. */
  seller: string;
  registrationNumber: string | null;
  /** True while the seller's details are the demo business's (SHOP_LEGAL_NAME unset). */
  sellerDemo: boolean;
  /** SHOP_VAT_NUMBER is set: only then do pages say prices include VAT (src/domain/vat-wording.ts). */
  vatRegistered: boolean;
}

type ShopDetail = "name" | "email" | "phone" | "address" | "hours" | "seller";

/** The same defaults as src/server/platform/config.ts: used in development (Vite serves index.html as is). */
const DEFAULT_CONFIG: PublicConfig = {
  name: "Snug & Dry",
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
  hours: "Mon-Sat 7AM-6PM",
  testPayments: false,
  adConversionId: null,
  seller: "Snug & Dry Demo Trading (Pty) Ltd",
  registrationNumber: "0000/000000/07",
  sellerDemo: true,
  vatRegistered: false,
};

/** Where the server puts the page config before it loads the server renderer (src/server/pages/renderer.ts). */
export const SERVER_CONFIG_GLOBAL = "__shopPageConfig";

function readInjectedJson(): Record<string, unknown> | null {
  if (typeof document === "undefined") {
    const data = (globalThis as Record<string, unknown>)[SERVER_CONFIG_GLOBAL];
    return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : null;
  }
  const text = document.getElementById("shop-config")?.textContent;
  if (!text) return null;
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Parses the injected object; every missing or malformed field falls back to its default. */
export function parsePublicConfig(data: Record<string, unknown> | null): PublicConfig {
  if (!data) return DEFAULT_CONFIG;
  const text = (key: ShopDetail) => {
    const value = data[key];
    return typeof value === "string" && value.trim() ? value : DEFAULT_CONFIG[key];
  };
  const { adConversionId, registrationNumber } = data;
  return {
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    address: text("address"),
    hours: text("hours"),
    testPayments: data.testPayments === true,
    adConversionId: typeof adConversionId === "string" && adConversionId.trim() ? adConversionId : null,
    seller: text("seller"),
    registrationNumber: typeof registrationNumber === "string" && registrationNumber ? registrationNumber : null,
    sellerDemo: data.sellerDemo === true,
    vatRegistered: data.vatRegistered === true,
  };
}

export const publicConfig: PublicConfig = parsePublicConfig(readInjectedJson());

/** "+27 21 555 0134" -> "tel:+27215550134". */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
