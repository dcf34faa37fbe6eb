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
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),

  PAYFAST_MODE: z.enum(["local", "sandbox", "live"]).default("local"),
  PAYFAST_MERCHANT_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_MERCHANT_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_PASSPHRASE: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_VALID_IPS: z.preprocess(emptyAsUndefined, z.string().optional()),
  PAYFAST_VALIDATE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),

  AD_CONVERSION_ID: z.preprocess(emptyAsUndefined, z.string().optional()),

  SHOP_NAME: z.string().default("Snug & Dry"),
  SHOP_EMAIL: z.string().default("hello@snuganddry.co.za"),
  SHOP_PHONE: z.string().default("+27 21 555 0134"),
  SHOP_ADDRESS: z.string().default("14 Loop Street, Cape Town, 8001"),
  SHOP_HOURS: z.string().default("Mon-Sat 7AM-6PM"),
  SERVE_STATIC: z.preprocess(emptyAsUndefined, booleanText.optional()),
});

export type Env = z.infer<typeof envSchema>;

/** PayFast's public sandbox account: the default for local and sandbox modes. */
export const PAYFAST_SANDBOX = {
  merchantId: "10000100",
  merchantKey: "46f0cd694581a",
  passphrase: "jt7NOE43FZPn",
} as const;

/** PayFast's published ITN source ranges (PAYFAST.md). */
export const PAYFAST_PUBLISHED_RANGES = [
  "197.97.145.144/28",
  "41.74.179.192/27",
  "102.216.36.0/28",
  "102.216.36.128/28",
  "144.126.193.139/32",
];

export function loadConfig(source: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}\nSee .env.example for every variable.`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const payfastDefaults = env.PAYFAST_MODE === "live" ? undefined : PAYFAST_SANDBOX;
  const merchantId = env.PAYFAST_MERCHANT_ID ?? payfastDefaults?.merchantId;
  const merchantKey = env.PAYFAST_MERCHANT_KEY ?? payfastDefaults?.merchantKey;
  if (env.PAYFAST_MODE === "live" && (!merchantId || !merchantKey)) {
    throw new ConfigError(
      "Invalid configuration:\n  PAYFAST_MERCHANT_ID and PAYFAST_MERCHANT_KEY are required when PAYFAST_MODE=live.",
    );
  }
  const validRanges =
    env.PAYFAST_VALID_IPS?.split(",")
      .map((range) => range.trim())
      .filter(Boolean) ?? (env.PAYFAST_MODE === "local" ? ["127.0.0.0/8", "::1/128"] : PAYFAST_PUBLISHED_RANGES);

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
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    serveStatic: env.SERVE_STATIC ?? true,
    session: {
      idleMs: env.SESSION_IDLE_DAYS * 86_400_000,
      absoluteMs: env.SESSION_ABSOLUTE_DAYS * 86_400_000,
    },
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    payfast: {
      mode: env.PAYFAST_MODE,
      merchantId: merchantId ?? "",
      merchantKey: merchantKey ?? "",
      passphrase: env.PAYFAST_PASSPHRASE ?? payfastDefaults?.passphrase,
      validRanges,
      /** Overrides where ITNs are confirmed (default: the emulator in local mode, PayFast otherwise). */
      validateUrl: env.PAYFAST_VALIDATE_URL,
    },
    adConversionId: env.AD_CONVERSION_ID,
    shop: {
      name: env.SHOP_NAME,
      email: env.SHOP_EMAIL,
      phone: env.SHOP_PHONE,
      address: env.SHOP_ADDRESS,
      hours: env.SHOP_HOURS,
    },
  };
}

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  override name = "ConfigError";
}
