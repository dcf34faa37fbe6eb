/** The shop's details as the server's config states them (SHOP_* variables), injected into index.html. */
export interface ShopConfig {
  name: string;
  email: string;
  phone: string;
  address: string;
  hours: string;
}

/** The same defaults as src/server/config.ts: used in development (Vite serves index.html as is). */
export const DEFAULT_SHOP_CONFIG: ShopConfig = {
  name: "Snug & Dry",
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
  hours: "Mon-Sat 7AM-6PM",
};

function readShopConfig(): ShopConfig {
  if (typeof document === "undefined") return DEFAULT_SHOP_CONFIG;
  const text = document.getElementById("shop-config")?.textContent;
  if (!text) return DEFAULT_SHOP_CONFIG;
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    const pick = (key: keyof ShopConfig) => {
      const value = data[key];
      return typeof value === "string" && value.trim() ? value : DEFAULT_SHOP_CONFIG[key];
    };
    return {
      name: pick("name"),
      email: pick("email"),
      phone: pick("phone"),
      address: pick("address"),
      hours: pick("hours"),
    };
  } catch {
    return DEFAULT_SHOP_CONFIG;
  }
}

export const shopConfig: ShopConfig = readShopConfig();

/** "+27 21 555 0134" -> "tel:+27215550134". */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
