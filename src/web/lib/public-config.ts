/** The shop's details as the server's config states them (SHOP_* variables), injected into index.html. */
export interface ShopConfig {
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
}

type ShopDetail = Exclude<keyof ShopConfig, "testPayments">;

/** The same defaults as src/server/config.ts: used in development (Vite serves index.html as is). */
export const DEFAULT_SHOP_CONFIG: ShopConfig = {
  name: "Snug & Dry",
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
  hours: "Mon-Sat 7AM-6PM",
  testPayments: false,
};

/** The page config's raw JSON object (src/server/web.ts writes it), or null. */
export function readPageConfig(): Record<string, unknown> | null {
  if (typeof document === "undefined") return null;
  const text = document.getElementById("shop-config")?.textContent;
  if (!text) return null;
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function readShopConfig(): ShopConfig {
  const data = readPageConfig();
  if (!data) return DEFAULT_SHOP_CONFIG;
  const pick = (key: ShopDetail) => {
    const value = data[key];
    return typeof value === "string" && value.trim() ? value : DEFAULT_SHOP_CONFIG[key];
  };
  return {
    name: pick("name"),
    email: pick("email"),
    phone: pick("phone"),
    address: pick("address"),
    hours: pick("hours"),
    testPayments: data.testPayments === true,
  };
}

export const shopConfig: ShopConfig = readShopConfig();

/** "+27 21 555 0134" -> "tel:+27215550134". */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
