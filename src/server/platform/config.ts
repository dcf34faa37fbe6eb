import { existsSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  CUTOFF_PATTERN,
  DEFAULT_FLAT_PRICES_CENTS,
  DELIVERY_SERVICES,
  type DeliveryService,
} from "#domain/delivery.js";
import { parseRandToCents } from "#domain/money.js";
import { MULTIBUY_PROMO_RULES } from "#domain/multibuy.js";
import { DEFAULT_RETENTION_YEARS, MIN_RETENTION_YEARS } from "#domain/retention.js";
import { DEMO_SHOP_CONTACT, isDemoContact, type ShopContactDetail } from "#domain/seller.js";
import { backupFolderProblem } from "./backup/folder.js";

const booleanText = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
/** A text setting; blank counts as unset. */
const optionalText = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.string().trim().optional(),
);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: 0.0.0.0 in live mode, 127.0.0.1 (this machine only) in the test modes. */
  HOST: z.preprocess(emptyAsUndefined, z.string().optional()),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATA_DIR: z.string().default("./data"),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** The memory the catalogue answers and rendered pages may hold, in MB (an LRU by bytes). */
  PAGE_CACHE_MB: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(4096).default(64)),
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
  /**
   * 32 random bytes (base64 or hex) sealing admins' TOTP secrets in the database (auth/totp-secrets.ts).
   * Required in live mode; unset in test modes, a key file made once in DATA_DIR stands in.
   */
  TOTP_ENCRYPTION_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The key before the last rotation: still opens secrets, which are sealed again with the new one at start. */
  TOTP_ENCRYPTION_KEY_PREVIOUS: z.preprocess(emptyAsUndefined, z.string().optional()),
  /**
   * Wrong passwords an account takes in 15 minutes, from anywhere, before the networks failing
   * against it are shut out (docs/decisions/042-failures-not-attempts.md); other networks still may.
   */
  LOGIN_FAILURES_PER_ACCOUNT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(10)),
  /** Password-reset requests a day from one client network (each address: 5 a day, whatever this says). */
  RESETS_PER_NETWORK_PER_DAY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(20)),
  /** Unpaid orders one account, and one client network, may hold at once (docs/decisions/020-abuse-limits.md). */
  UNPAID_ORDERS_PER_ACCOUNT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(3)),
  UNPAID_ORDERS_PER_ADDRESS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(3)),
  /** Create-order and cancel attempts a minute, per account and per client network. */
  ORDER_RATE_LIMIT_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(10)),
  PROMO_CHECKS_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** How a multi-buy saving meets a promo code (docs/decisions/047-multi-buy-tiers.md): the better of the two, or both. */
  MULTIBUY_WITH_PROMO: z.preprocess(emptyAsUndefined, z.enum(MULTIBUY_PROMO_RULES).default("best")),

  PAYFAST_MODE: z.enum(["local", "sandbox", "live"]).default("local"),
  PAYFAST_MERCHANT_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_MERCHANT_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_PASSPHRASE: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_VALID_IPS: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_VALIDATE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  ALLOW_TEST_PAYMENTS: z.preprocess(emptyAsUndefined, booleanText.optional()),
  PAYFAST_RECONCILE_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(15)),
  PAYFAST_EMULATOR_PAYMENT_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).optional()),

  /** Couriers, lockers and pickup points (docs/decisions/051, src/server/delivery/README.md). */
  COURIER_MODE: z.preprocess(emptyAsUndefined, z.enum(["local", "manual", "sandbox", "live"]).default("local")),
  SHIPLOGIC_API_TOKEN: z.preprocess(emptyAsUndefined, z.string().optional()),
  TCG_LOCKER_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  PARGO_API_TOKEN: z.preprocess(emptyAsUndefined, z.string().optional()),
  COURIER_COLLECTION_CODE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\d{4}$/, "must be the 4-digit postal code parcels are collected from")
      .optional(),
  ),
  /** The secret the couriers' tracking webhooks are signed with (delivery/webhooks.ts). */
  COURIER_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16).optional()),
  COURIER_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(30_000).default(2_500)),
  DELIVERY_PRICING: z.preprocess(emptyAsUndefined, z.enum(["flat", "live"]).default("flat")),
  DELIVERY_FLAT_DOOR_ECONOMY: z.preprocess(emptyAsUndefined, z.string().optional()),
  DELIVERY_FLAT_DOOR_EXPRESS: z.preprocess(emptyAsUndefined, z.string().optional()),
  DELIVERY_FLAT_LOCKER: z.preprocess(emptyAsUndefined, z.string().optional()),
  DELIVERY_FLAT_PICKUP_POINT: z.preprocess(emptyAsUndefined, z.string().optional()),
  DELIVERY_CUTOFF: z.preprocess(
    emptyAsUndefined,
    z.string().regex(CUTOFF_PATTERN, "must be a time of day as HH:MM (14:00)").default("12:00"),
  ),
  DELIVERY_QUOTE_CACHE_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3_600).default(300)),

  SMTP_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().optional()),
  MAIL_CAPTURE_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  ORDER_HOLD_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(60)),
  ORDER_PENDING_HOLD_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(720).default(48)),

  AD_CONVERSION_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  /**
   * Years an order's personal details are kept after the end of the tax year it was placed in and
   * the 12 months until that year's income tax return is due (src/domain/retention.ts). Fewer than
   * 5 would break the Tax Administration Act (s29(3)(a)), so the shop refuses to start.
   */
  RETENTION_YEARS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .int("must be a whole number of years")
      .min(
        MIN_RETENTION_YEARS,
        `must be at least ${MIN_RETENTION_YEARS}: tax records (orders and invoices) are kept ${MIN_RETENTION_YEARS} years from the submission of the year's return (Tax Administration Act s29(3)(a)); the default is ${DEFAULT_RETENTION_YEARS} (Companies Act s24)`,
      )
      .max(30, "must be at most 30 years")
      .default(DEFAULT_RETENTION_YEARS),
  ),

  /** Minutes between the "your next box" e-mail runs (fractions allowed, e.g. 0.05 in the browser tests). */
  PLAN_NOTICE_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(1440).default(60)),

  SHOP_NAME: z.string().default("Snug & Dry"),
  /** The shop's contact details; unset in a test mode, the demo shop's (DEMO_SHOP_CONTACT), never in live mode. */
  SHOP_EMAIL: optionalText,
  SHOP_PHONE: optionalText,
  SHOP_ADDRESS: optionalText,
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
  SHOP_LEGAL_NAME: optionalText,
  SHOP_LEGAL_STATUS: optionalText,
  SHOP_REGISTRATION_NUMBER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .regex(
        /^(CK ?)?\d{4}\/\d{6}\/\d{2}$/,
        "must be a CIPC registration number such as 2019/123456/07 (a close corporation's may start with CK)",
      )
      .optional(),
  ),
  SHOP_DIRECTORS: optionalText,
  SHOP_PLACE_OF_REGISTRATION: optionalText,
  SHOP_SERVICE_ADDRESS: optionalText,
  SHOP_INFORMATION_OFFICER_NAME: optionalText,
  SHOP_INFORMATION_OFFICER_EMAIL: z.preprocess(
    emptyAsUndefined,
    z.email("must be an e-mail address (the Information Officer's, published on /legal and /privacy)").optional(),
  ),
  /** The owner-edited policies (content/policies/*.md); default: the project's own content folder. */
  CONTENT_DIR: optionalText,
  SERVE_STATIC: z.preprocess(emptyAsUndefined, booleanText.optional()),

  /** Backups (docs/backups.md): where they are written, how often the job makes one, how long they are kept. */
  BACKUP_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  BACKUP_EVERY_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .int("must be a whole number of hours (1: every hour; 0: none)")
      .min(0)
      .max(24 * 7)
      .default(1),
  ),
  /** The minute past the hour the backups run at (UTC), so they never drift with each run's length. */
  BACKUP_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(59).default(17)),
  BACKUP_KEEP_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(14)),
  /** Each backup is also copied to this S3-compatible bucket (path style, as S3_URL). */
  BACKUP_S3_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** GET /metrics (docs/operations.md): off unless set, then only with this bearer token. */
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .min(24, "must be at least 24 characters (openssl rand -hex 24 makes one)")
      .regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces")
      .optional(),
  ),
  /** Owner alerts (docs/operations.md): where they go, how often the checks run (0: never), when the disk counts as nearly full. */
  ALERT_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
  ALERT_CHECK_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(1440).default(1)),
  ALERT_DISK_FREE_PERCENT: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(100).default(10)),
  /** Uploaded photos' renditions (docs/images.md): this folder, default DATA_DIR/media... */
  MEDIA_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** ...or an S3-compatible bucket: https://KEY_ID:SECRET@host/bucket?region=af-south-1 (path style). */
  S3_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
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
  // PayFast's AWS senders, confirmed by PayFast support in the WooCommerce gateway's PR #471:
  // 13.245.74.88 (w1w.payfast.co.za) and the 21 addresses 3.163.232.237 to 3.163.252.237.
  "13.245.74.88/32",
  ...Array.from({ length: 21 }, (_, n) => `3.163.${232 + n}.237/32`),
];

/** The only ports PayFast sends notifications to (docs/payfast.md §4). */
export const PAYFAST_NOTIFY_PORTS = [80, 443, 8080, 8081] as const;

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

/**
 * Reads `.env` (in the working directory unless told otherwise) into process.env when it exists,
 * with Node's own parser; a variable the real environment already has keeps its value.
 */
export function loadEnvFile(file = ".env"): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/** The secrets that may come from a file instead (NAME_FILE), as container platforms mount them. */
export const SECRET_FILE_SETTINGS = [
  "DATABASE_URL",
  "SMTP_URL",
  "PAYFAST_PASSPHRASE",
  "TOTP_ENCRYPTION_KEY",
  "TOTP_ENCRYPTION_KEY_PREVIOUS",
  "METRICS_TOKEN",
  "S3_URL",
  "BACKUP_S3_URL",
] as const;

/**
 * The environment with each NAME_FILE read into NAME (its trailing line break dropped). Giving
 * both, or a file that cannot be read, is a problem: the shop never guesses which one was meant.
 */
function withSecretFiles(source: Record<string, string | undefined>, problems: string[]) {
  const resolved = { ...source };
  for (const name of SECRET_FILE_SETTINGS) {
    const file = source[`${name}_FILE`];
    if (file === undefined || file === "") continue;
    if (source[name] !== undefined && source[name] !== "") {
      problems.push(
        `${name}_FILE: ${name} is set as well; give the secret one way only (remove ${name} or ${name}_FILE).`,
      );
      continue;
    }
    try {
      resolved[name] = readFileSync(file, "utf8").replace(/\r?\n$/, "");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
      problems.push(`${name}_FILE: cannot read ${file} (${reason}).`);
    }
  }
  return resolved;
}

export function loadConfig(source: Record<string, string | undefined> = process.env) {
  // Every problem is collected so that one start names them all.
  const problems: string[] = [];
  const parsed = envSchema.safeParse(withSecretFiles(source, problems));
  if (!parsed.success) {
    throw invalidConfiguration([
      ...problems,
      ...parsed.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message}`),
    ]);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const payfast = payfastConfig(env, publicUrl, problems);
  const courier = courierConfig(env, problems);
  checkSmtp(env, problems);
  const contact = shopContact(env, problems);
  const seller = sellerConfig(env, contact, problems);
  const s3 = env.S3_URL ? parseS3Url("S3_URL", env.S3_URL, problems) : undefined;
  const backupS3 = env.BACKUP_S3_URL ? parseS3Url("BACKUP_S3_URL", env.BACKUP_S3_URL, problems) : undefined;
  const totpKeys = totpKeyConfig(env, problems);
  const backupDir = path.resolve(env.BACKUP_DIR ?? path.join(env.DATA_DIR, "backups"));
  // The daily backup would write customers' data into a folder others can read: refused before it starts.
  const backupFolder = env.BACKUP_EVERY_HOURS > 0 ? backupFolderProblem(backupDir) : null;
  if (backupFolder) problems.push(backupFolder);
  if (env.MAIL_CAPTURE_DIR && env.PAYFAST_MODE === "live") {
    problems.push(
      "MAIL_CAPTURE_DIR: refused when PAYFAST_MODE=live: it writes customers' password reset links to disk. Set SMTP_URL to send messages.",
    );
  }
  if (problems.length > 0) throw invalidConfiguration(problems);

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    // A test-payment shop answers this machine alone unless HOST says otherwise; live serves everyone.
    host: env.HOST ?? (payfast.mode === "live" ? "0.0.0.0" : "127.0.0.1"),
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    dbPoolSize: env.DB_POOL_SIZE,
    /** The catalogue cache's budget in bytes (PAGE_CACHE_MB): least recently used answers go first. */
    pageCacheBytes: env.PAGE_CACHE_MB * 1024 * 1024,
    orderHoldMinutes: env.ORDER_HOLD_MINUTES,
    /** How long a PENDING notification from PayFast (a slow EFT or voucher) keeps the order's stock. */
    orderPendingHoldHours: env.ORDER_PENDING_HOLD_HOURS,
    mail: mailConfig(env, contact),
    logLevel: env.LOG_LEVEL,
    trustProxy,
    serveStatic: env.SERVE_STATIC ?? true,
    backup: backupConfig(env, backupDir, backupS3),
    metricsToken: env.METRICS_TOKEN,
    media: {
      dir: path.resolve(env.MEDIA_DIR ?? path.join(env.DATA_DIR, "media")),
      s3,
    },
    alerts: alertsConfig(env, contact),
    session: sessionConfig(env, publicUrl),
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    loginFailuresPerAccount: env.LOGIN_FAILURES_PER_ACCOUNT,
    resetsPerNetworkPerDay: env.RESETS_PER_NETWORK_PER_DAY,
    adminSecondFactor: adminSecondFactorConfig(env, totpKeys),
    orderLimits: orderLimitsConfig(env),
    /** Promo code checks per minute and client network: enough to retype a code, too few to guess codes. */
    promoChecksPerMinute: env.PROMO_CHECKS_PER_MINUTE,
    /** "best": the multi-buy saving or the promo code, whichever saves more; "both": the tiers, then the code on what is left. */
    multibuyWithPromo: env.MULTIBUY_WITH_PROMO,
    payfast,
    courier,
    adConversionId: env.AD_CONVERSION_ID,
    retentionYears: env.RETENTION_YEARS,
    planNoticeMinutes: env.PLAN_NOTICE_MINUTES,
    shop: {
      name: env.SHOP_NAME,
      ...contact,
      hours: env.SHOP_HOURS,
      vatNumber: env.SHOP_VAT_NUMBER ?? null,
    },
    seller,
    contentDir: path.resolve(env.CONTENT_DIR ?? defaultContentDir()),
  };
}

/** The one message a start with bad settings stops on, naming every problem at once. */
function invalidConfiguration(lines: string[]): ConfigError {
  return new ConfigError(
    `Invalid configuration:\n${lines.map((line) => `  ${line}`).join("\n")}\nSee .env.example for every variable.`,
  );
}

/** How messages leave the shop: by SMTP, or captured in the outbox (and optionally a folder). */
function mailConfig(env: Env, contact: ShopContact) {
  return {
    /** smtp(s)://user:pass@host:port; unset: messages are captured in the outbox, readable in the admin. */
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM ?? `"${env.SHOP_NAME}" <${contact.email}>`,
    /** Without SMTP: captured messages also written here in full, reset links included (never in live mode). */
    captureDir: env.MAIL_CAPTURE_DIR ? path.resolve(env.MAIL_CAPTURE_DIR) : undefined,
  };
}

/** Where and how often the shop backs up its database, and how long the copies are kept. */
function backupConfig(env: Env, backupDir: string, backupS3: S3Settings | undefined) {
  return {
    dir: backupDir,
    /** 0: the job makes none (backups come from elsewhere, e.g. a managed database's own). */
    everyHours: env.BACKUP_EVERY_HOURS,
    minute: env.BACKUP_MINUTE,
    keepDays: env.BACKUP_KEEP_DAYS,
    /** BACKUP_S3_URL: where each backup is also copied, off the machine (backup/offsite.ts). */
    s3: backupS3,
  };
}

/** Owner alerts (docs/operations.md): who gets them, how often the checks run, when the disk counts as nearly full. */
function alertsConfig(env: Env, contact: ShopContact) {
  return {
    to: env.ALERT_EMAIL ?? contact.email,
    /** 0: no checks. */
    checkMinutes: env.ALERT_CHECK_MINUTES,
    diskFreePercent: env.ALERT_DISK_FREE_PERCENT,
  };
}

/** How many unpaid orders an account or address may hold, and how fast orders may be placed. */
function orderLimitsConfig(env: Env) {
  return {
    unpaidPerAccount: env.UNPAID_ORDERS_PER_ACCOUNT,
    unpaidPerAddress: env.UNPAID_ORDERS_PER_ADDRESS,
    ratePerMinute: env.ORDER_RATE_LIMIT_PER_MINUTE,
  };
}

/** How long a sign-in lasts, and the cookie that carries it. */
function sessionConfig(env: Env, publicUrl: string) {
  return {
    idleMs: env.SESSION_IDLE_DAYS * 86_400_000,
    absoluteMs: env.SESSION_ABSOLUTE_DAYS * 86_400_000,
    // An admin's session can refund and change every order: it idles out sooner, never later.
    adminIdleMs: Math.min(env.ADMIN_SESSION_IDLE_HOURS * 3_600_000, env.SESSION_IDLE_DAYS * 86_400_000),
    // The __Host- prefix makes the browser refuse the cookie unless it is Secure, for Path=/ and
    // without Domain: a sibling subdomain or a plain-http page cannot plant or shadow it.
    cookieName: publicUrl.startsWith("https://") ? "__Host-sid" : "sid",
  };
}

/** Admins' two-step sign-in: required in live mode unless ADMIN_2FA says otherwise. */
function adminSecondFactorConfig(env: Env, totpKeys: ReturnType<typeof totpKeyConfig>) {
  return {
    required: (env.ADMIN_2FA ?? (env.PAYFAST_MODE === "live" ? "required" : "optional")) === "required",
    stepUpMs: env.ADMIN_STEP_UP_MINUTES * 60_000,
    /** The keys sealing TOTP secrets; `current` null: the key file in DATA_DIR (test modes only). */
    keys: totpKeys,
  };
}

/** A key of 32 bytes, written as base64 (44 characters) or hex (64), or null when it is neither. */
export function parseTotpKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (key.length === 32) return key;
  }
  return null;
}

/**
 * TOTP_ENCRYPTION_KEY and the previous one. A stolen database backup must hold no working second
 * factor, so the key never lives in the database; live mode refuses to start without one.
 */
function totpKeyConfig(
  env: { PAYFAST_MODE: PayfastMode; TOTP_ENCRYPTION_KEY?: string; TOTP_ENCRYPTION_KEY_PREVIOUS?: string },
  problems: string[],
): { current: Buffer | null; previous: Buffer | null } {
  const howTo = "32 random bytes as base64, e.g. the output of `openssl rand -base64 32`";
  const read = (name: "TOTP_ENCRYPTION_KEY" | "TOTP_ENCRYPTION_KEY_PREVIOUS") => {
    const text = env[name];
    if (text === undefined) return null;
    const key = parseTotpKey(text);
    if (!key) problems.push(`${name}: must be ${howTo} (or 64 hex characters).`);
    return key;
  };
  const current = read("TOTP_ENCRYPTION_KEY");
  const previous = read("TOTP_ENCRYPTION_KEY_PREVIOUS");
  if (env.TOTP_ENCRYPTION_KEY === undefined && env.PAYFAST_MODE === "live") {
    problems.push(
      `TOTP_ENCRYPTION_KEY: required when PAYFAST_MODE=live: it seals admins' two-step sign-in secrets, so a copy of the database alone holds no working second factor. Set it (or TOTP_ENCRYPTION_KEY_FILE) to ${howTo}, and keep it apart from the database backups.`,
    );
  }
  if (previous && env.TOTP_ENCRYPTION_KEY === undefined) {
    problems.push("TOTP_ENCRYPTION_KEY_PREVIOUS: set only beside TOTP_ENCRYPTION_KEY (the new key after a rotation).");
  }
  return { current, previous };
}

/**
 * The policies shipped with the shop: dist/content in a release (the build copies content/ there,
 * scripts/release-files.mjs), else the project's own content/ folder beside src/.
 */
function defaultContentDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const inRelease = path.resolve(here, "../../content");
  return existsSync(inRelease) ? inRelease : path.resolve(here, "../../../content");
}

/**
 * Who the seller is (ECTA s43(1)(a), (b), (f), (g); POPIA s55): shown on /legal, in the footer and
 * the policies. Every setting is optional in test modes, where the demo business's details stand
 * in (and the pages say they are a demo's).
 */
export interface SellerConfig {
  /** True when SHOP_LEGAL_NAME is unset: the details are the demo business's, and the pages say so. */
  demo: boolean;
  legalName: string;
  /** "(Pty) Ltd", "CC", "sole proprietor"... */
  legalStatus: string;
  /** True for a company or close corporation: a legal person, with a registration number and office bearers. */
  legalPerson: boolean;
  registrationNumber: string | null;
  /** Directors or members (office bearers), as listed in SHOP_DIRECTORS. */
  directors: string[];
  placeOfRegistration: string | null;
  /** Where the seller accepts service of legal documents. */
  serviceAddress: string;
  informationOfficer: { name: string; email: string };
}

/** The demo business: a made-up company, so the shop runs complete on one machine (never in live mode). */
export const DEMO_SELLER = {
  legalName: "Snug & Dry Demo Trading",
  legalStatus: "(Pty) Ltd",
  registrationNumber: "0000/000000/07",
  directors: ["Thandi Example", "Pieter Example"],
  placeOfRegistration: "Cape Town, South Africa",
} as const;

/** Legal statuses of companies and close corporations: legal persons with a CIPC registration number. */
const LEGAL_PERSON =
  /\(pty\)|\bltd\b|\blimited\b|\binc\b|\bincorporated\b|\bcc\b|close corporation|\bnpc\b|\bsoc\b|company/i;

export function isLegalPerson(legalStatus: string): boolean {
  return LEGAL_PERSON.test(legalStatus);
}

export type ShopContact = Record<ShopContactDetail, string>;

const CONTACT_SETTINGS: readonly [ShopContactDetail, "SHOP_EMAIL" | "SHOP_PHONE" | "SHOP_ADDRESS", string][] = [
  ["address", "SHOP_ADDRESS", "the shop's physical address, shown to buyers (ECTA s43(1)(b))"],
  ["phone", "SHOP_PHONE", "the telephone number buyers can reach the shop on (ECTA s43(1)(b))"],
  ["email", "SHOP_EMAIL", "the e-mail address buyers can reach the shop at (ECTA s43(1)(c))"],
];

/**
 * The shop's address, phone and e-mail. A test mode takes the demo shop's for any left unset; live
 * mode takes none of them: each must be set, and not to the demo's (a buyer shown a fictitious
 * address or phone may cancel within 14 days instead of 7, ECTA s43(3)).
 */
function shopContact(env: Env, problems: string[]): ShopContact {
  const live = env.PAYFAST_MODE === "live";
  const contact: ShopContact = { ...DEMO_SHOP_CONTACT };
  for (const [detail, setting, what] of CONTACT_SETTINGS) {
    const value = env[setting];
    if (value !== undefined) contact[detail] = value;
    if (!live) continue;
    if (value === undefined) {
      problems.push(`${setting}: required when PAYFAST_MODE=live (${what}).`);
    } else if (isDemoContact(detail, value)) {
      problems.push(
        `${setting}: ${value} is the demo shop's ${detail === "email" ? "e-mail address" : detail}; set the shop's own when PAYFAST_MODE=live (${what}).`,
      );
    }
  }
  return contact;
}

/**
 * The seller's details. Live mode takes real money from consumers, so it refuses to start without
 * what ECTA s43(1) makes the site show (a site that omits them gives every buyer 14 days to cancel
 * instead of 7, s43(3)): the legal name and status, the address for service, and for a company or
 * close corporation its registration number and office bearers.
 */
function sellerConfig(env: Env, contact: ShopContact, problems: string[]): SellerConfig {
  const live = env.PAYFAST_MODE === "live";
  const demo = !live && !env.SHOP_LEGAL_NAME;
  const fallback = (value: string | undefined, demoValue: string) => value ?? (live ? undefined : demoValue);
  const legalName = fallback(env.SHOP_LEGAL_NAME, DEMO_SELLER.legalName);
  const legalStatus = fallback(env.SHOP_LEGAL_STATUS, DEMO_SELLER.legalStatus);
  const serviceAddress = fallback(env.SHOP_SERVICE_ADDRESS, contact.address);
  const legalPerson = legalStatus !== undefined && isLegalPerson(legalStatus);
  const registrationNumber =
    env.SHOP_REGISTRATION_NUMBER ?? (legalPerson && !live ? DEMO_SELLER.registrationNumber : undefined);
  const listed = env.SHOP_DIRECTORS?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const directors = listed?.length ? listed : legalPerson && !live ? [...DEMO_SELLER.directors] : [];

  if (live) {
    const required = (setting: string, what: string) =>
      problems.push(`${setting}: required when PAYFAST_MODE=live (${what}; ECTA s43(1) makes the shop show it).`);
    if (!legalName) required("SHOP_LEGAL_NAME", "the seller's full legal name, as registered");
    if (!legalStatus) required("SHOP_LEGAL_STATUS", 'its legal status, such as "(Pty) Ltd", "CC" or "sole proprietor"');
    if (!env.SHOP_SERVICE_ADDRESS) {
      required("SHOP_SERVICE_ADDRESS", "the physical address where the seller accepts service of legal documents");
    } else if (isDemoContact("address", env.SHOP_SERVICE_ADDRESS)) {
      problems.push(
        `SHOP_SERVICE_ADDRESS: ${env.SHOP_SERVICE_ADDRESS} is the demo shop's address; set the address where the seller accepts service of legal documents when PAYFAST_MODE=live (ECTA s43(1)(g)).`,
      );
    }
    if (legalPerson && !registrationNumber) {
      required("SHOP_REGISTRATION_NUMBER", `the CIPC registration number of a ${legalStatus} business`);
    }
    if (legalPerson && directors.length === 0) {
      required("SHOP_DIRECTORS", `the names of the office bearers (directors or members) of a ${legalStatus} business`);
    }
  }

  const name = legalName ?? "";
  return {
    demo,
    legalName: name,
    legalStatus: legalStatus ?? "",
    legalPerson,
    registrationNumber: registrationNumber ?? null,
    directors,
    placeOfRegistration:
      env.SHOP_PLACE_OF_REGISTRATION ??
      (legalPerson ? (demo ? DEMO_SELLER.placeOfRegistration : "South Africa") : null),
    serviceAddress: serviceAddress ?? "",
    informationOfficer: {
      // POPIA s55: by default the head of the business.
      name: env.SHOP_INFORMATION_OFFICER_NAME ?? directors[0] ?? name,
      email: env.SHOP_INFORMATION_OFFICER_EMAIL ?? contact.email,
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
    checkLivePayfast(env, publicUrl, { merchantId, merchantKey, validIps }, problems);
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

  const emulatorPaymentOrigin = emulatorPaymentOriginOf(env, publicUrl, problems);
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

/**
 * Live mode's refusals: the sandbox account, no passphrase, no https (or a port PayFast never
 * notifies), and test overrides left in would each lose or fake real money.
 */
function checkLivePayfast(
  env: Env,
  publicUrl: string,
  { merchantId, merchantKey, validIps }: { merchantId?: string; merchantKey?: string; validIps?: string[] },
  problems: string[],
): void {
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
  } else {
    const url = new URL(publicUrl);
    const port = Number(url.port || 443);
    if (!(PAYFAST_NOTIFY_PORTS as readonly number[]).includes(port)) {
      problems.push(
        `PUBLIC_URL: port ${port} is one PayFast never notifies (it sends notifications to ports ${PAYFAST_NOTIFY_PORTS.join(", ")} only), so no payment would ever be confirmed; serve the shop on one of them when PAYFAST_MODE=live.`,
      );
    }
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
}

/** The local emulator's payment page origin (PAYFAST_EMULATOR_PAYMENT_PORT): local mode only, never the shop's own. */
function emulatorPaymentOriginOf(env: Env, publicUrl: string, problems: string[]): string | undefined {
  const emulatorPort = env.PAYFAST_EMULATOR_PAYMENT_PORT;
  if (emulatorPort === undefined) return undefined;
  if (env.PAYFAST_MODE !== "local") {
    problems.push(
      `PAYFAST_EMULATOR_PAYMENT_PORT: only for PAYFAST_MODE=local (the emulator does not run in ${env.PAYFAST_MODE} mode); remove it.`,
    );
    return undefined;
  }
  const emulatorPaymentOrigin = new URL(`http://${new URL(publicUrl).hostname}:${emulatorPort}`).origin;
  if (emulatorPort === env.PORT || emulatorPaymentOrigin === new URL(publicUrl).origin) {
    problems.push(
      `PAYFAST_EMULATOR_PAYMENT_PORT: ${emulatorPort} is the shop's own port; pick another one, so the payment page has an origin of its own.`,
    );
  }
  return emulatorPaymentOrigin;
}

export type CourierMode = "local" | "manual" | "sandbox" | "live";

/** What each flat price is read from, by service. */
const FLAT_PRICE_SETTINGS: Record<DeliveryService, keyof Env> = {
  door_economy: "DELIVERY_FLAT_DOOR_ECONOMY",
  door_express: "DELIVERY_FLAT_DOOR_EXPRESS",
  locker: "DELIVERY_FLAT_LOCKER",
  pickup_point: "DELIVERY_FLAT_PICKUP_POINT",
};

/**
 * The couriers (docs/decisions/051): local talks to the emulator inside the shop (refused in a live
 * shop); manual asks no courier (door delivery at the flat prices, shipped by hand); sandbox and live
 * to ShipLogic, TCG Locker and Pargo with the owner's tokens, refused at start without them (every
 * quote would fail and fall back to a flat price the owner never chose to charge).
 */
function courierConfig(env: Env, problems: string[]) {
  const mode: CourierMode = env.COURIER_MODE;
  if (mode === "local" && env.PAYFAST_MODE === "live") {
    problems.push(
      "COURIER_MODE: local is the courier emulator, refused when PAYFAST_MODE=live: its made-up lockers and pickup points would be offered to real customers and its waybills go nowhere. Set COURIER_MODE=manual to ship by hand at your flat door prices (no lockers or points), or COURIER_MODE=live with your ShipLogic, TCG Locker and Pargo credentials.",
    );
  }
  if (mode === "manual" && env.DELIVERY_PRICING === "live") {
    problems.push(
      "DELIVERY_PRICING: live asks a courier for rates; COURIER_MODE=manual has none. Set DELIVERY_PRICING=flat, or a COURIER_MODE with a courier.",
    );
  }
  if (mode === "sandbox" || mode === "live") {
    const needed: [keyof Env, string][] = [
      ["SHIPLOGIC_API_TOKEN", "ShipLogic's API token, for door rates"],
      ["TCG_LOCKER_API_KEY", "TCG Locker's API key, for lockers and their rates"],
      ["PARGO_API_TOKEN", "Pargo's token, for its pickup points"],
      ["COURIER_COLLECTION_CODE", "the postal code parcels are collected from, which every rate depends on"],
      [
        "COURIER_WEBHOOK_SECRET",
        "the secret tracking webhooks are signed with; without it anyone could mark an order delivered",
      ],
    ];
    for (const [name, what] of needed) {
      if (!env[name]) problems.push(`${name}: required when COURIER_MODE=${mode} (${what}).`);
    }
  }
  const flatPricesCents = { ...DEFAULT_FLAT_PRICES_CENTS };
  for (const service of DELIVERY_SERVICES) {
    const setting = FLAT_PRICE_SETTINGS[service];
    const text = env[setting];
    if (typeof text !== "string") continue;
    const cents = parseRandToCents(text);
    if (cents === null || cents < 0 || cents > 1_000_000) {
      problems.push(`${setting}: must be an amount in rand from 0 to 10000 (75.00), not ${text}.`);
    } else flatPricesCents[service] = cents;
  }
  const hosts = {
    sandbox: {
      shiplogic: "https://sandbox.shiplogic.com",
      tcgLocker: "https://sandbox.api-pudo.co.za",
      pargo: "https://api.staging.pargo.co.za",
    },
    live: {
      shiplogic: "https://api.shiplogic.com",
      tcgLocker: "https://api-pudo.co.za",
      pargo: "https://api.pargo.co.za",
    },
  };
  return {
    mode,
    /** Where each vendor is reached; in local mode the emulator's paths inside the shop (src/server/delivery/emulator.ts). */
    baseUrls:
      mode === "local"
        ? {
            shiplogic: "/courier-emulator/shiplogic",
            tcgLocker: "/courier-emulator/tcg-locker",
            pargo: "/courier-emulator/pargo",
          }
        : mode === "manual"
          ? { shiplogic: "", tcgLocker: "", pargo: "" }
          : hosts[mode],
    tokens: {
      shiplogic: env.SHIPLOGIC_API_TOKEN ?? (mode === "local" ? "emulator-shiplogic-token" : ""),
      tcgLocker: env.TCG_LOCKER_API_KEY ?? (mode === "local" ? "emulator-tcg-locker-key" : ""),
      pargo: env.PARGO_API_TOKEN ?? (mode === "local" ? "emulator-pargo-token" : ""),
    },
    collectionCode: env.COURIER_COLLECTION_CODE ?? "2196",
    webhookSecret: env.COURIER_WEBHOOK_SECRET ?? (mode === "local" ? "emulator-courier-webhook-secret" : ""),
    timeoutMs: env.COURIER_TIMEOUT_MS,
    /** flat: the owner's prices per option; live: the couriers' quotes, the flat price when one fails. */
    pricing: env.DELIVERY_PRICING,
    flatPricesCents,
    /** Paid before this time (South African) on a business day: dispatched the same day. */
    cutoff: env.DELIVERY_CUTOFF,
    quoteCacheMs: env.DELIVERY_QUOTE_CACHE_SECONDS * 1000,
  };
}

/** nodemailer's URL options that let a message travel in clear text or to an unverified server. */
const SMTP_TLS_OPT_OUTS: [option: string, value: string][] = [
  ["requireTLS", "false"],
  ["ignoreTLS", "true"],
  ["tls.rejectUnauthorized", "false"],
];

/**
 * Live mode needs SMTP_URL: without it password-reset links and order confirmations sit in the
 * outbox, readable by every admin, and customers get nothing. Every message goes over TLS (smtps,
 * or STARTTLS required: src/server/platform/mail-transport.ts); the URL may opt out (?requireTLS=false,
 * ?ignoreTLS=true, ?tls.rejectUnauthorized=false) only for a server on this machine.
 */
function checkSmtp(env: Env, problems: string[]) {
  if (!env.SMTP_URL) {
    if (env.PAYFAST_MODE === "live") {
      problems.push(
        "SMTP_URL: required when PAYFAST_MODE=live (smtps://user:pass@host:465 or smtp://user:pass@host:587): without it order confirmations and password-reset links are never sent, and sit in the outbox readable by every admin.",
      );
    }
    return;
  }
  const url = new URL(env.SMTP_URL);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    problems.push(`SMTP_URL: must start with smtp:// (STARTTLS) or smtps:// (TLS), not ${url.protocol}//.`);
    return;
  }
  const optOuts = SMTP_TLS_OPT_OUTS.filter(([option, value]) => url.searchParams.get(option) === value).map(
    ([option, value]) => `${option}=${value}`,
  );
  if (optOuts.length > 0 && !isLoopbackHost(url.hostname)) {
    problems.push(
      `SMTP_URL: ${optOuts.join(", ")} would send passwords and customers' messages without TLS to ${url.hostname}; allowed only for a mail server on this machine (127.0.0.1, ::1 or localhost).`,
    );
  }
}

export interface S3Settings {
  /** https://host[:port], without the credentials. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const S3_URL_HINT = "write it as https://ACCESS_KEY_ID:SECRET@host/bucket?region=af-south-1";

/**
 * S3_URL (where photos go instead of MEDIA_DIR) and BACKUP_S3_URL (where backups are copied): the
 * keys in the URL's user and password (URL-encoded), the bucket as its path.
 */
function parseS3Url(name: string, text: string, problems: string[]): S3Settings | undefined {
  const url = new URL(text);
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ""));
  const found: string[] = [];
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    found.push("must be https (plain http only for a server on this machine)");
  }
  if (!url.username || !url.password) found.push("needs the access key ID and secret as its user and password");
  if (!bucket || bucket.includes("/")) found.push("needs the bucket's name as its path, and nothing more");
  if (found.length > 0) {
    problems.push(`${name}: ${found.join("; ")}; ${S3_URL_HINT}.`);
    return undefined;
  }
  return {
    endpoint: url.origin,
    bucket,
    region: url.searchParams.get("region") ?? "us-east-1",
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
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
  return isLoopbackHost(hostname);
}

/** A URL's host name that only this machine answers: localhost, *.localhost, 127.x.x.x or [::1]. */
function isLoopbackHost(hostname: string): boolean {
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
