import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

const booleanText = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATA_DIR: z.string().default("./data"),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().optional()),

  SESSION_IDLE_DAYS: z.coerce.number().positive().default(7),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  ADMIN_SESSION_IDLE_HOURS: z.coerce.number().positive().default(2),
  /** required: an admin must enrol a second factor before the admin panel opens (default in live mode). */
  ADMIN_2FA: z.preprocess(emptyAsUndefined, z.enum(["required", "optional"]).optional()),
  /** How fresh an enrolled admin's last code must be for a refund, the customer export, making an admin or turning 2FA off. */
  ADMIN_STEP_UP_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(10)),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /** Unpaid orders one account, and one client network, may hold at once (docs/decisions/020-abuse-limits.md). */
  UNPAID_ORDERS_PER_ACCOUNT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(3)),
  UNPAID_ORDERS_PER_ADDRESS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(3)),
  /** Create-order and cancel attempts a minute, per account and per client network. */
  ORDER_RATE_LIMIT_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(10)),

  PAYFAST_MODE: z.enum(["local", "sandbox", "live"]).default("local"),
  PAYFAST_MERCHANT_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_MERCHANT_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_PASSPHRASE: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_VALID_IPS: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_VALIDATE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  ALLOW_TEST_PAYMENTS: z.preprocess(emptyAsUndefined, booleanText.optional()),
  PAYFAST_RECONCILE_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(15)),
  PAYFAST_EMULATOR_PAYMENT_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).optional()),

  SMTP_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().optional()),
  MAIL_CAPTURE_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  ORDER_HOLD_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(60)),

  AD_CONVERSION_ID: z.preprocess(emptyAsUndefined, z.string().optional()),

  SHOP_NAME: z.string().default("Snug & Dry"),
  SHOP_EMAIL: z.string().default("hello@snuganddry.co.za"),
  SHOP_PHONE: z.string().default("+27 21 555 0134"),
  SHOP_ADDRESS: z.string().default("14 Loop Street, Cape Town, 8001"),
  SHOP_HOURS: z.string().default("Mon-Sat 7AM-6PM"),
  /** Set once the shop is VAT-registered: invoices become SARS tax invoices with the VAT shown. */
  SHOP_VAT_NUMBER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .regex(/^4\d{9}$/, "must be a South African VAT number: 10 digits starting with 4")
      .optional(),
  ),
  SERVE_STATIC: z.preprocess(emptyAsUndefined, booleanText.optional()),
});

export type Env = z.infer<typeof envSchema>;

/** PayFast's public sandbox account: the default for local and sandbox modes, refused in live mode. */
export const PAYFAST_SANDBOX = {
  merchantId: "10000100",
  merchantKey: "46f0cd694581a",
  passphrase: "jt7NOE43FZPn",
} as const;

/** PayFast's published ITN source ranges (docs/payfast.md §4). */
export const PAYFAST_PUBLISHED_RANGES = [
  "197.97.145.144/28",
  "41.74.179.192/27",
  "102.216.36.0/28",
  "102.216.36.128/28",
  "144.126.193.139/32",
];

/** PayFast's hosts whose current DNS answers are valid ITN sources too (docs/payfast.md §4). */
export const PAYFAST_LIVE_SOURCE_HOSTS = ["www.payfast.co.za", "w1w.payfast.co.za", "w2w.payfast.co.za"];
export const PAYFAST_SANDBOX_SOURCE_HOSTS = ["sandbox.payfast.co.za"];

const LOCAL_RANGES = ["127.0.0.0/8", "::1/128"];
const PAYFAST_API_URL = "https://api.payfast.co.za";

export type PayfastMode = "local" | "sandbox" | "live";

export interface PayfastConfig {
  mode: PayfastMode;
  merchantId: string;
  merchantKey: string;
  passphrase: string | undefined;
  /** True unless live: no real money moves. */
  testPayments: boolean;
  /** ALLOW_TEST_PAYMENTS: test payments on a public address on purpose. */
  allowTestPayments: boolean;
  /** CIDR ranges and addresses ITNs may come from. */
  validRanges: string[];
  /** Host names whose current DNS answers are valid ITN sources as well. */
  sourceHosts: string[];
  /** Overrides where ITNs are confirmed (default: the emulator in local mode, PayFast otherwise). */
  validateUrl: string | undefined;
  /** PayFast's API (refunds, transaction history): the emulator's in local mode. */
  apiUrl: string;
  /** Sandbox API calls add ?testing=true. */
  apiTesting: boolean;
  /** How old an unpaid PayFast order gets before it is checked against PayFast's records. */
  reconcileMinutes: number;
  /** The local emulator's payment page on a second origin, as live PayFast's payment.payfast.io. */
  emulatorPaymentOrigin: string | undefined;
}

/** Who may set the client address by X-Forwarded-For: nobody, the nearest N hops, or the proxies' addresses (never "every hop"). */
export type TrustProxy = false | number | string[];

export function loadConfig(source: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}\nSee .env.example for every variable.`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  // Every problem is collected so that one start names them all.
  const problems: string[] = [];
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const payfast = payfastConfig(env, publicUrl, problems);
  if (env.MAIL_CAPTURE_DIR && env.PAYFAST_MODE === "live") {
    problems.push(
      "MAIL_CAPTURE_DIR: refused when PAYFAST_MODE=live: it writes customers' password reset links to disk. Set SMTP_URL to send messages.",
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${problems.map((line) => `  ${line}`).join("\n")}\nSee .env.example for every variable.`,
    );
  }

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    dbPoolSize: env.DB_POOL_SIZE,
    orderHoldMinutes: env.ORDER_HOLD_MINUTES,
    mail: {
      /** smtp(s)://user:pass@host:port; unset: messages are captured in the outbox, readable in the admin. */
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `"${env.SHOP_NAME}" <${env.SHOP_EMAIL}>`,
      /** Without SMTP: captured messages also written here in full, reset links included (never in live mode). */
      captureDir: env.MAIL_CAPTURE_DIR ? path.resolve(env.MAIL_CAPTURE_DIR) : undefined,
    },
    logLevel: env.LOG_LEVEL,
    trustProxy,
    serveStatic: env.SERVE_STATIC ?? true,
    session: {
      idleMs: env.SESSION_IDLE_DAYS * 86_400_000,
      absoluteMs: env.SESSION_ABSOLUTE_DAYS * 86_400_000,
      // An admin's session can refund and change every order: it idles out sooner, never later.
      adminIdleMs: Math.min(env.ADMIN_SESSION_IDLE_HOURS * 3_600_000, env.SESSION_IDLE_DAYS * 86_400_000),
      // The __Host- prefix makes the browser refuse the cookie unless it is Secure, for Path=/ and
      // without Domain: a sibling subdomain or a plain-http page cannot plant or shadow it.
      cookieName: publicUrl.startsWith("https://") ? "__Host-sid" : "sid",
    },
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    adminSecondFactor: {
      required: (env.ADMIN_2FA ?? (env.PAYFAST_MODE === "live" ? "required" : "optional")) === "required",
      stepUpMs: env.ADMIN_STEP_UP_MINUTES * 60_000,
    },
    orderLimits: {
      unpaidPerAccount: env.UNPAID_ORDERS_PER_ACCOUNT,
      unpaidPerAddress: env.UNPAID_ORDERS_PER_ADDRESS,
      ratePerMinute: env.ORDER_RATE_LIMIT_PER_MINUTE,
    },
    payfast,
    adConversionId: env.AD_CONVERSION_ID,
    shop: {
      name: env.SHOP_NAME,
      email: env.SHOP_EMAIL,
      phone: env.SHOP_PHONE,
      address: env.SHOP_ADDRESS,
      hours: env.SHOP_HOURS,
      vatNumber: env.SHOP_VAT_NUMBER ?? null,
    },
  };
}

/** The start-up line saying whether this shop takes real money. */
export function describeMode(config: { payfast: Pick<PayfastConfig, "mode" | "merchantId"> }): string {
  switch (config.payfast.mode) {
    case "local":
      return "PayFast test mode (local emulator): no real payments are taken";
    case "sandbox":
      return "PayFast sandbox: no real payments are taken";
    case "live":
      return `PayFast live: real payments (merchant ${config.payfast.merchantId})`;
  }
}

/**
 * PayFast's settings, refusing what would lose or fake real money: test modes on a public address
 * (shoppers would "pay" and get goods for nothing) unless ALLOW_TEST_PAYMENTS says so, and a live
 * mode with the sandbox account, no passphrase, no https or a test override left in.
 */
function payfastConfig(env: Env, publicUrl: string, problems: string[]): PayfastConfig {
  const mode = env.PAYFAST_MODE;
  const live = mode === "live";
  const allowTestPayments = env.ALLOW_TEST_PAYMENTS ?? false;
  const defaults = live ? undefined : PAYFAST_SANDBOX;
  const merchantId = env.PAYFAST_MERCHANT_ID ?? defaults?.merchantId;
  const merchantKey = env.PAYFAST_MERCHANT_KEY ?? defaults?.merchantKey;
  const listedIps = env.PAYFAST_VALID_IPS?.split(",")
    .map((range) => range.trim())
    .filter(Boolean);
  const validIps = listedIps?.length ? listedIps : undefined;

  if (live) {
    if (!merchantId) {
      problems.push("PAYFAST_MERCHANT_ID: required when PAYFAST_MODE=live (your PayFast account's merchant ID).");
    } else if (merchantId === PAYFAST_SANDBOX.merchantId) {
      problems.push(
        `PAYFAST_MERCHANT_ID: ${merchantId} is PayFast's public sandbox account, which takes no real money; set your own merchant ID when PAYFAST_MODE=live.`,
      );
    }
    if (!merchantKey) {
      problems.push("PAYFAST_MERCHANT_KEY: required when PAYFAST_MODE=live (your PayFast account's merchant key).");
    } else if (merchantKey === PAYFAST_SANDBOX.merchantKey) {
      problems.push(
        "PAYFAST_MERCHANT_KEY: that is PayFast's public sandbox key; set your own merchant key when PAYFAST_MODE=live.",
      );
    }
    if (!env.PAYFAST_PASSPHRASE) {
      problems.push(
        "PAYFAST_PASSPHRASE: required when PAYFAST_MODE=live: the passphrase set in your PayFast account's developer settings (without it anyone can sign a payment form or an ITN for your merchant ID, and PayFast's API refuses refunds).",
      );
    }
    if (!env.PUBLIC_URL) {
      problems.push(
        "PUBLIC_URL: required when PAYFAST_MODE=live: the shop's https address (PayFast's return, cancel and notify URLs are built from it).",
      );
    } else if (new URL(publicUrl).protocol !== "https:") {
      problems.push(`PUBLIC_URL: must be https when PAYFAST_MODE=live (got ${publicUrl}).`);
    }
    if (env.PAYFAST_VALIDATE_URL) {
      problems.push(
        "PAYFAST_VALIDATE_URL: for test modes only; remove it when PAYFAST_MODE=live so that ITNs are confirmed with PayFast itself.",
      );
    }
    if (validIps) {
      problems.push(
        "PAYFAST_VALID_IPS: for test modes only; remove it when PAYFAST_MODE=live (ITNs are checked against PayFast's published ranges and its hosts' addresses).",
      );
    }
  } else if (!isLoopbackUrl(publicUrl) && !allowTestPayments) {
    problems.push(
      `PAYFAST_MODE: ${mode} takes no real money, but PUBLIC_URL (${publicUrl}) is not a localhost address: orders placed there would be marked paid without any money. Set PAYFAST_MODE=live for real payments, or ALLOW_TEST_PAYMENTS=true to run test payments on a public address on purpose.`,
    );
  }
  if (validIps && !live) {
    const bad = validIps.filter((entry) => !isAddressOrCidr(entry));
    if (bad.length > 0) {
      problems.push(
        `PAYFAST_VALID_IPS: ${listOf(bad)} ${bad.length === 1 ? "is" : "are"} not an IP address or CIDR range.`,
      );
    }
  }

  let emulatorPaymentOrigin: string | undefined;
  const emulatorPort = env.PAYFAST_EMULATOR_PAYMENT_PORT;
  if (emulatorPort !== undefined) {
    if (mode !== "local") {
      problems.push(
        `PAYFAST_EMULATOR_PAYMENT_PORT: only for PAYFAST_MODE=local (the emulator does not run in ${mode} mode); remove it.`,
      );
    } else {
      emulatorPaymentOrigin = new URL(`http://${new URL(publicUrl).hostname}:${emulatorPort}`).origin;
      if (emulatorPort === env.PORT || emulatorPaymentOrigin === new URL(publicUrl).origin) {
        problems.push(
          `PAYFAST_EMULATOR_PAYMENT_PORT: ${emulatorPort} is the shop's own port; pick another one, so the payment page has an origin of its own.`,
        );
      }
    }
  }

  const sourceHosts = live
    ? PAYFAST_LIVE_SOURCE_HOSTS
    : mode === "sandbox" && !validIps
      ? PAYFAST_SANDBOX_SOURCE_HOSTS
      : [];
  const validRanges = live
    ? PAYFAST_PUBLISHED_RANGES
    : (validIps ?? (mode === "local" ? LOCAL_RANGES : PAYFAST_PUBLISHED_RANGES));
  return {
    mode,
    merchantId: merchantId ?? "",
    merchantKey: merchantKey ?? "",
    passphrase: env.PAYFAST_PASSPHRASE ?? defaults?.passphrase,
    testPayments: !live,
    allowTestPayments,
    validRanges: [...validRanges],
    sourceHosts: [...sourceHosts],
    validateUrl: env.PAYFAST_VALIDATE_URL,
    apiUrl: mode === "local" ? `${publicUrl}/payfast-emulator/api` : PAYFAST_API_URL,
    apiTesting: mode === "sandbox",
    reconcileMinutes: env.PAYFAST_RECONCILE_MINUTES,
    emulatorPaymentOrigin,
  };
}

/** How to write TRUST_PROXY, quoted by every refusal. */
const TRUST_PROXY_HINT =
  "write the number of proxies in front of the shop (TRUST_PROXY=1), or their addresses or CIDR ranges, comma separated (TRUST_PROXY=10.0.0.5 or TRUST_PROXY=10.0.0.0/8,172.16.0.0/12)";

/**
 * TRUST_PROXY: a hop count (the shop is reachable only through that many proxies), or the proxies'
 * addresses and CIDR ranges. "true" is refused: trusting every hop lets any client write its own
 * X-Forwarded-For and so choose the address PayFast's source check and the rate limits see.
 */
function parseTrustProxy(value: string | undefined, problems: string[]): TrustProxy {
  const text = value?.trim() ?? "";
  if (text === "" || text.toLowerCase() === "false" || /^0+$/.test(text)) return false;
  if (text.toLowerCase() === "true") {
    problems.push(
      `TRUST_PROXY: true trusts every hop, so any client could forge X-Forwarded-For (passing PayFast's source check, dodging the rate limits); ${TRUST_PROXY_HINT}.`,
    );
    return false;
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) problems.push(`TRUST_PROXY: ${text} hops is more proxies than any shop has; ${TRUST_PROXY_HINT}.`);
    return hops;
  }
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY: ${listOf(bad)} ${bad.length === 1 ? "is" : "are"} not an IP address or CIDR range; ${TRUST_PROXY_HINT}.`,
    );
  }
  const everyone = entries.filter((entry) => /\/0+$/.test(entry));
  if (everyone.length > 0) {
    problems.push(
      `TRUST_PROXY: ${listOf(everyone)} trusts every address, as TRUST_PROXY=true would; ${TRUST_PROXY_HINT}.`,
    );
  }
  return entries;
}

/** "203.0.113.7", "10.0.0.0/8", "::1", "fd00::/8". */
function isAddressOrCidr(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32);
}

/** http(s)://localhost, *.localhost, 127.x.x.x or [::1]: a shop only its own machine can reach. */
function isLoopbackUrl(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol !== "http:" && protocol !== "https:") return false;
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    (isIP(hostname) === 4 && hostname.startsWith("127."))
  );
}

function listOf(entries: string[]): string {
  return entries.map((entry) => `"${entry}"`).join(", ");
}

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  override name = "ConfigError";
}
