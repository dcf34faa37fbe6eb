/**
 * What a live shop must say about its seller (ECTA s43(1); src/server/platform/config.ts refuses live mode
 * without it, or with the demo shop's address, phone or e-mail): a made-up private company, for
 * tests that configure PAYFAST_MODE=live.
 */
export const LIVE_SELLER: Record<string, string> = {
  SHOP_LEGAL_NAME: "Umbrella Nappies Trading",
  SHOP_LEGAL_STATUS: "(Pty) Ltd",
  SHOP_REGISTRATION_NUMBER: "2019/123456/07",
  SHOP_DIRECTORS: "Lindiwe Khumalo, Johan van der Merwe",
  SHOP_SERVICE_ADDRESS: "Unit 4, 22 Voortrekker Road, Bellville, 7530",
  SHOP_ADDRESS: "Unit 4, 22 Voortrekker Road, Bellville, 7530",
  SHOP_PHONE: "+27 21 948 2210",
  SHOP_EMAIL: "orders@umbrella-nappies.co.za",
};

/** The key live mode requires to seal admins' TOTP secrets (src/server/platform/config.ts refuses to start without it). */
export const LIVE_TOTP_KEY: Record<string, string> = {
  TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString("base64"),
};

/**
 * A live shop's couriers: the emulator (COURIER_MODE=local) is refused there, so tests of live mode
 * ship by hand unless they are about the couriers.
 */
export const LIVE_COURIER: Record<string, string> = { COURIER_MODE: "manual" };
