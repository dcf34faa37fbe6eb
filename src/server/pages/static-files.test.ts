import { describe, expect, it } from "vitest";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../../../tests/helpers/live-seller.js";
import { loadConfig } from "../platform/config.js";
import { injectShopConfig, pageConfig } from "./static-files.js";

const shop = {
  name: "Snug & Dry",
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
  hours: "Mon-Sat 7AM-6PM",
  seller: "Snug & Dry Demo Trading (Pty) Ltd",
};
const page = "<html><head><title>x</title>\n<!--shop-config-->\n</head><body></body></html>";

function configOf(html: string): unknown {
  const text = /<script type="application\/json" id="shop-config">(.*?)<\/script>/s.exec(html)?.[1];
  return text === undefined ? undefined : JSON.parse(text);
}

describe("injectShopConfig", () => {
  it("replaces the placeholder with the shop's details as inert JSON", () => {
    const html = injectShopConfig(page, shop);
    expect(html).not.toContain("<!--shop-config-->");
    expect(configOf(html)).toEqual(shop);
  });

  it("escapes < so a configured value can never close the script tag", () => {
    const hostile = { ...shop, name: "</script><script>alert(1)</script>", address: "<!-- 1 & 2 -->" };
    const html = injectShopConfig(page, hostile);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain("</script><script>");
    expect(configOf(html)).toEqual(hostile);
  });

  it("keeps $ patterns in values as they are", () => {
    const html = injectShopConfig(page, { ...shop, name: "Snug $& Dry $1" });
    expect((configOf(html) as { name: string }).name).toBe("Snug $& Dry $1");
  });

  it("puts the details before </head> when the page has no placeholder", () => {
    const html = injectShopConfig("<html><head></head><body></body></html>", shop);
    expect(html).toMatch(/<script type="application\/json" id="shop-config">.*<\/script><\/head>/);
    expect(configOf(html)).toEqual(shop);
  });
});

describe("pageConfig", () => {
  const live = loadConfig({
    PAYFAST_MODE: "live",
    ...LIVE_SELLER,
    ...LIVE_TOTP_KEY,
    ...LIVE_COURIER,
    PUBLIC_URL: "https://shop.example.co.za",
    PAYFAST_MERCHANT_ID: "10234567",
    PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
    PAYFAST_PASSPHRASE: "a-long-secret-phrase",
    SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
  });

  it.each([
    ["the local emulator", loadConfig({}), true],
    ["PayFast's sandbox", loadConfig({ PAYFAST_MODE: "sandbox" }), true],
    ["live PayFast", live, false],
  ])("tells the browser whether payments are test payments with %s", (_name, config, testPayments) => {
    const { vatNumber: _onInvoicesOnly, ...shop } = config.shop;
    expect(pageConfig(config)).toMatchObject({ ...shop, testPayments });
  });

  it("carries the ad-conversion id only when one is set", () => {
    expect(pageConfig(live)).not.toHaveProperty("adConversionId");
    expect(pageConfig(loadConfig({ AD_CONVERSION_ID: "AW-123" }))).toMatchObject({ adConversionId: "AW-123" });
  });
});
