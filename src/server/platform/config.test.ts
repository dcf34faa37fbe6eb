import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../../../tests/helpers/live-seller.js";
import { ConfigError, describeMode, loadConfig, PAYFAST_PUBLISHED_RANGES, PAYFAST_SANDBOX } from "./config.js";

type Env = Record<string, string>;

/** A live configuration that takes real money safely; each refusal below breaks one thing in it. */
const LIVE: Env = {
  PAYFAST_MODE: "live",
  ...LIVE_SELLER,
  ...LIVE_TOTP_KEY,
  ...LIVE_COURIER,
  PUBLIC_URL: "https://shop.example.co.za",
  PAYFAST_MERCHANT_ID: "10012345",
  PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
  PAYFAST_PASSPHRASE: "a long and secret passphrase",
  SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
};

function without(env: Env, ...keys: string[]): Env {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !keys.includes(key)));
}

/** loadConfig's refusal, or a failure when it accepted the configuration. */
function refusal(env: Env): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig refuses configurations that are unsafe for real money", () => {
  it.each<[string, Env, RegExp]>([
    [
      "local mode on a public address",
      { PUBLIC_URL: "https://shop.example.co.za" },
      /PAYFAST_MODE: local takes no real money.*ALLOW_TEST_PAYMENTS=true/,
    ],
    [
      "sandbox mode on a public address",
      { PAYFAST_MODE: "sandbox", PUBLIC_URL: "https://shop.example.co.za" },
      /PAYFAST_MODE: sandbox takes no real money.*ALLOW_TEST_PAYMENTS=true/,
    ],
    [
      "local mode on a LAN address",
      { PUBLIC_URL: "http://192.168.1.20:3000" },
      /PAYFAST_MODE: local.*PUBLIC_URL \(http:\/\/192\.168\.1\.20:3000\)/,
    ],
    [
      "local mode on a name that only looks local",
      { PUBLIC_URL: "http://localhost.example.com" },
      /PAYFAST_MODE: local/,
    ],
    [
      "test payments on a public address with ALLOW_TEST_PAYMENTS=false",
      { PUBLIC_URL: "https://shop.example.co.za", ALLOW_TEST_PAYMENTS: "false" },
      /ALLOW_TEST_PAYMENTS/,
    ],
    ["live mode with the sandbox merchant id", { ...LIVE, PAYFAST_MERCHANT_ID: "10000100" }, /PAYFAST_MERCHANT_ID/],
    [
      "live mode with the sandbox merchant key",
      { ...LIVE, PAYFAST_MERCHANT_KEY: "46f0cd694581a" },
      /PAYFAST_MERCHANT_KEY/,
    ],
    ["live mode without a merchant id", without(LIVE, "PAYFAST_MERCHANT_ID"), /PAYFAST_MERCHANT_ID: required/],
    ["live mode without a merchant key", without(LIVE, "PAYFAST_MERCHANT_KEY"), /PAYFAST_MERCHANT_KEY: required/],
    ["live mode without a passphrase", without(LIVE, "PAYFAST_PASSPHRASE"), /PAYFAST_PASSPHRASE: required/],
    ["live mode with an empty passphrase", { ...LIVE, PAYFAST_PASSPHRASE: "" }, /PAYFAST_PASSPHRASE: required/],
    ["live mode on http", { ...LIVE, PUBLIC_URL: "http://shop.example.co.za" }, /PUBLIC_URL: must be https/],
    ["live mode without a PUBLIC_URL", without(LIVE, "PUBLIC_URL"), /PUBLIC_URL: required/],
    [
      "live mode on a port PayFast never notifies",
      { ...LIVE, PUBLIC_URL: "https://shop.example.co.za:8443" },
      /PUBLIC_URL: port 8443 is one PayFast never notifies \(it sends notifications to ports 80, 443, 8080, 8081 only\)/,
    ],
    ["live mode on port 8082", { ...LIVE, PUBLIC_URL: "https://shop.example.co.za:8082" }, /PUBLIC_URL: port 8082/],
    ["live mode on port 79", { ...LIVE, PUBLIC_URL: "https://shop.example.co.za:79" }, /PUBLIC_URL: port 79/],
    [
      "live mode with a PAYFAST_VALIDATE_URL override",
      { ...LIVE, PAYFAST_VALIDATE_URL: "http://127.0.0.1:9999/validate" },
      /PAYFAST_VALIDATE_URL: for test modes only/,
    ],
    [
      "live mode with a PAYFAST_VALID_IPS override",
      { ...LIVE, PAYFAST_VALID_IPS: "10.0.0.0/8" },
      /PAYFAST_VALID_IPS: for test modes only/,
    ],
    [
      "live mode with the emulator's payment port",
      { ...LIVE, PAYFAST_EMULATOR_PAYMENT_PORT: "3101" },
      /PAYFAST_EMULATOR_PAYMENT_PORT/,
    ],
    [
      "sandbox mode with the emulator's payment port",
      { PAYFAST_MODE: "sandbox", PAYFAST_EMULATOR_PAYMENT_PORT: "3101" },
      /PAYFAST_EMULATOR_PAYMENT_PORT: only for PAYFAST_MODE=local/,
    ],
    [
      "the emulator's payment page on the shop's own port",
      { PORT: "3100", PUBLIC_URL: "http://localhost:3100", PAYFAST_EMULATOR_PAYMENT_PORT: "3100" },
      /PAYFAST_EMULATOR_PAYMENT_PORT: 3100 is the shop's own port/,
    ],
    ["TRUST_PROXY=true", { TRUST_PROXY: "true" }, /TRUST_PROXY: true trusts every hop.*TRUST_PROXY=10\.0\.0\.5/],
    ["TRUST_PROXY=TRUE", { TRUST_PROXY: "TRUE" }, /TRUST_PROXY: true trusts every hop/],
    ["more hops in TRUST_PROXY than any shop has", { TRUST_PROXY: "11" }, /TRUST_PROXY: 11 hops is more proxies/],
    [
      "a host name in TRUST_PROXY",
      { TRUST_PROXY: "127.0.0.1,proxy.internal" },
      /TRUST_PROXY: "proxy\.internal" is not/,
    ],
    ["a prefix too long in TRUST_PROXY", { TRUST_PROXY: "10.0.0.0/33" }, /TRUST_PROXY: "10\.0\.0\.0\/33" is not/],
    ["an IPv6 prefix too long in TRUST_PROXY", { TRUST_PROXY: "fd00::/129" }, /TRUST_PROXY: "fd00::\/129" is not/],
    [
      "a netmask in TRUST_PROXY",
      { TRUST_PROXY: "10.0.0.0/255.0.0.0" },
      /TRUST_PROXY: "10\.0\.0\.0\/255\.0\.0\.0" is not/,
    ],
    [
      "a range of every address in TRUST_PROXY",
      { TRUST_PROXY: "0.0.0.0/0" },
      /TRUST_PROXY: "0\.0\.0\.0\/0" trusts every address/,
    ],
    [
      "a bad entry in PAYFAST_VALID_IPS",
      { PAYFAST_VALID_IPS: "197.97.145.144/28,payfast.co.za" },
      /PAYFAST_VALID_IPS: "payfast\.co\.za" is not/,
    ],
    ["a PAYFAST_RECONCILE_MINUTES of zero", { PAYFAST_RECONCILE_MINUTES: "0" }, /PAYFAST_RECONCILE_MINUTES/],
    [
      "a PAYFAST_RECONCILE_MINUTES that is not a number",
      { PAYFAST_RECONCILE_MINUTES: "soon" },
      /PAYFAST_RECONCILE_MINUTES/,
    ],
    ["an ALLOW_TEST_PAYMENTS that is not a yes or no", { ALLOW_TEST_PAYMENTS: "maybe" }, /ALLOW_TEST_PAYMENTS/],
    ["live mode without SMTP_URL", without(LIVE, "SMTP_URL"), /SMTP_URL: required when PAYFAST_MODE=live/],
    [
      "SMTP without TLS to a server on the network",
      { SMTP_URL: "smtp://mail.example.co.za:587?requireTLS=false" },
      /SMTP_URL: requireTLS=false would send .* to mail\.example\.co\.za; allowed only for a mail server on this machine/,
    ],
    [
      "SMTP ignoring STARTTLS on a server on the network",
      { ...LIVE, SMTP_URL: "smtp://shop:secret@10.0.0.25:25?ignoreTLS=true" },
      /SMTP_URL: ignoreTLS=true would send/,
    ],
    [
      "SMTP trusting any certificate on a server on the network",
      { SMTP_URL: "smtps://mail.example.co.za:465?tls.rejectUnauthorized=false" },
      /SMTP_URL: tls\.rejectUnauthorized=false would send/,
    ],
    ["an SMTP_URL that is not SMTP", { SMTP_URL: "https://mail.example.co.za" }, /SMTP_URL: must start with smtp:\/\//],
    [
      "live mode writing captured reset links to disk",
      { ...LIVE, MAIL_CAPTURE_DIR: "/tmp/captured" },
      /MAIL_CAPTURE_DIR: refused when PAYFAST_MODE=live/,
    ],
    [
      "a PAYFAST_EMULATOR_PAYMENT_PORT out of range",
      { PAYFAST_EMULATOR_PAYMENT_PORT: "70000" },
      /PAYFAST_EMULATOR_PAYMENT_PORT/,
    ],
  ])("refuses %s, naming the setting", (_name, env, message) => {
    expect(refusal(env).message).toMatch(message);
  });

  it("reports every problem of a live configuration, one line each", () => {
    const message = refusal({
      PAYFAST_MODE: "live",
      ...LIVE_SELLER,
      ...LIVE_TOTP_KEY,
      ...LIVE_COURIER,
      PAYFAST_MERCHANT_ID: "10000100",
      TRUST_PROXY: "true",
    }).message;
    const lines = message.split("\n").filter((line) => line.startsWith("  "));
    expect(lines.map((line) => line.trim().split(":")[0])).toEqual([
      "TRUST_PROXY",
      "PAYFAST_MERCHANT_ID",
      "PAYFAST_MERCHANT_KEY",
      "PAYFAST_PASSPHRASE",
      "PUBLIC_URL",
      "SMTP_URL",
    ]);
    expect(message).toMatch(/^Invalid configuration:\n/);
    expect(message).toMatch(/See \.env\.example for every variable\.$/);
  });
});

describe("loadConfig accepts the safe configurations", () => {
  it.each<[string, Env]>([
    ["the defaults (local mode on localhost)", {}],
    ["local mode on 127.0.0.1", { PUBLIC_URL: "http://127.0.0.1:3000" }],
    ["local mode on another loopback address", { PUBLIC_URL: "http://127.0.0.2:3000" }],
    ["local mode on [::1]", { PUBLIC_URL: "http://[::1]:3000" }],
    ["local mode on a .localhost name", { PUBLIC_URL: "https://shop.localhost" }],
    ["sandbox mode on localhost", { PAYFAST_MODE: "sandbox", PUBLIC_URL: "http://localhost:3000" }],
    [
      "local mode on a public address with ALLOW_TEST_PAYMENTS=true",
      { PUBLIC_URL: "https://staging.example.co.za", ALLOW_TEST_PAYMENTS: "true" },
    ],
    [
      "sandbox mode on a public address with ALLOW_TEST_PAYMENTS=true",
      { PAYFAST_MODE: "sandbox", PUBLIC_URL: "https://staging.example.co.za", ALLOW_TEST_PAYMENTS: "true" },
    ],
    ["a proper live configuration", LIVE],
    ["a live configuration with STARTTLS", { ...LIVE, SMTP_URL: "smtp://shop:secret@mail.example.co.za:587" }],
    ["SMTP without TLS to this machine's mail server", { SMTP_URL: "smtp://127.0.0.1:25?requireTLS=false" }],
    ["SMTP ignoring STARTTLS on localhost", { SMTP_URL: "smtp://localhost:25?ignoreTLS=true" }],
    ["SMTP without TLS to [::1]", { SMTP_URL: "smtp://[::1]:25?requireTLS=false" }],
    ["a proper live configuration behind a proxy", { ...LIVE, TRUST_PROXY: "10.0.0.0/8" }],
  ])("accepts %s", (_name, env) => {
    expect(() => loadConfig(env)).not.toThrow();
  });

  it("keeps the own merchant account and passphrase of a live configuration", () => {
    const { payfast } = loadConfig(LIVE);
    expect(payfast).toMatchObject({
      mode: "live",
      merchantId: "10012345",
      merchantKey: "q1cd2rdny4a53",
      passphrase: "a long and secret passphrase",
      testPayments: false,
      allowTestPayments: false,
    });
  });

  it("uses PayFast's sandbox account in the test modes", () => {
    for (const mode of ["local", "sandbox"]) {
      const { payfast } = loadConfig({ PAYFAST_MODE: mode });
      expect(payfast).toMatchObject({ ...PAYFAST_SANDBOX, testPayments: true, allowTestPayments: false });
    }
  });

  it("reads ALLOW_TEST_PAYMENTS as a yes or no", () => {
    expect(loadConfig({ ALLOW_TEST_PAYMENTS: "yes" }).payfast.allowTestPayments).toBe(true);
    expect(loadConfig({ ALLOW_TEST_PAYMENTS: "0" }).payfast.allowTestPayments).toBe(false);
    expect(loadConfig({ ALLOW_TEST_PAYMENTS: "" }).payfast.allowTestPayments).toBe(false);
  });
});

describe("PayFast settings per mode", () => {
  const local = loadConfig({ PUBLIC_URL: "http://localhost:3100/" }).payfast;
  const sandbox = loadConfig({ PAYFAST_MODE: "sandbox" }).payfast;
  const live = loadConfig(LIVE).payfast;

  it.each([
    ["local", local, { validRanges: ["127.0.0.0/8", "::1/128"], sourceHosts: [] }],
    ["sandbox", sandbox, { validRanges: PAYFAST_PUBLISHED_RANGES, sourceHosts: ["sandbox.payfast.co.za"] }],
    [
      "live",
      live,
      {
        validRanges: PAYFAST_PUBLISHED_RANGES,
        sourceHosts: ["www.payfast.co.za", "w1w.payfast.co.za", "w2w.payfast.co.za"],
      },
    ],
  ])("takes ITNs in %s mode from its own sources", (_mode, payfast, sources) => {
    expect(payfast).toMatchObject(sources);
  });

  it.each([
    ["local", local, { apiUrl: "http://localhost:3100/payfast-emulator/api", apiTesting: false }],
    ["sandbox", sandbox, { apiUrl: "https://api.payfast.co.za", apiTesting: true }],
    ["live", live, { apiUrl: "https://api.payfast.co.za", apiTesting: false }],
  ])("calls PayFast's API in %s mode at its own address", (_mode, payfast, api) => {
    expect(payfast).toMatchObject(api);
  });

  it("lets PAYFAST_VALID_IPS replace the test modes' sources, DNS names included", () => {
    const overridden = loadConfig({ PAYFAST_MODE: "sandbox", PAYFAST_VALID_IPS: " 10.0.0.0/8, 192.0.2.7 ," }).payfast;
    expect(overridden.validRanges).toEqual(["10.0.0.0/8", "192.0.2.7"]);
    expect(overridden.sourceHosts).toEqual([]);
    expect(loadConfig({ PAYFAST_VALID_IPS: "197.97.145.144/28" }).payfast.validRanges).toEqual(["197.97.145.144/28"]);
  });

  it("gives each configuration its own copy of the ranges", () => {
    loadConfig(LIVE).payfast.validRanges.push("0.0.0.0/0");
    expect(loadConfig(LIVE).payfast.validRanges).toEqual(PAYFAST_PUBLISHED_RANGES);
  });

  it("reconciles unpaid orders after 15 minutes unless PAYFAST_RECONCILE_MINUTES says otherwise", () => {
    expect(local.reconcileMinutes).toBe(15);
    expect(loadConfig({ PAYFAST_RECONCILE_MINUTES: "0.05" }).payfast.reconcileMinutes).toBe(0.05);
  });

  it("serves the emulator's payment page from a second origin when PAYFAST_EMULATOR_PAYMENT_PORT is set", () => {
    expect(local.emulatorPaymentOrigin).toBeUndefined();
    const split = loadConfig({ PUBLIC_URL: "http://localhost:3100", PAYFAST_EMULATOR_PAYMENT_PORT: "3101" }).payfast;
    expect(split.emulatorPaymentOrigin).toBe("http://localhost:3101");
    const loopback = loadConfig({ PUBLIC_URL: "http://127.0.0.1:3100", PAYFAST_EMULATOR_PAYMENT_PORT: "3101" });
    expect(loopback.payfast.emulatorPaymentOrigin).toBe("http://127.0.0.1:3101");
  });

  it("keeps PAYFAST_VALIDATE_URL as the place ITNs are confirmed in the test modes", () => {
    expect(loadConfig({ PAYFAST_VALIDATE_URL: "http://127.0.0.1:9999/validate" }).payfast.validateUrl).toBe(
      "http://127.0.0.1:9999/validate",
    );
    expect(local.validateUrl).toBeUndefined();
  });
});

describe("TRUST_PROXY", () => {
  it.each<[string | undefined, false | number | string[]]>([
    [undefined, false],
    ["", false],
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.5, 10.1.0.0/16,", ["10.0.0.5", "10.1.0.0/16"]],
    ["::1, fd00::/8", ["::1", "fd00::/8"]],
  ])("reads %j as %j", (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it("names every bad entry at once", () => {
    expect(refusal({ TRUST_PROXY: "10.0.0.1,proxy,10.0.0.0/40" }).message).toMatch(
      /TRUST_PROXY: "proxy", "10\.0\.0\.0\/40" are not an IP address or CIDR range/,
    );
  });
});

describe("describeMode", () => {
  it.each([
    [{}, "PayFast test mode (local emulator): no real payments are taken"],
    [{ PAYFAST_MODE: "sandbox" }, "PayFast sandbox: no real payments are taken"],
    [LIVE, "PayFast live: real payments (merchant 10012345)"],
  ])("says whether %j takes real money", (env, line) => {
    expect(describeMode(loadConfig(env))).toBe(line);
  });
});

describe("where the shop listens", () => {
  it.each<[string, Env, string]>([
    ["local mode", {}, "127.0.0.1"],
    ["sandbox mode", { PAYFAST_MODE: "sandbox" }, "127.0.0.1"],
    [
      "sandbox mode on a public address on purpose",
      { PAYFAST_MODE: "sandbox", PUBLIC_URL: "https://staging.example.co.za", ALLOW_TEST_PAYMENTS: "true" },
      "127.0.0.1",
    ],
    ["live mode", LIVE, "0.0.0.0"],
    ["local mode with HOST", { HOST: "0.0.0.0" }, "0.0.0.0"],
    ["live mode with HOST", { ...LIVE, HOST: "10.0.0.7" }, "10.0.0.7"],
    ["an empty HOST", { HOST: "" }, "127.0.0.1"],
  ])("%s listens on its default or HOST", (_name, env, host) => {
    expect(loadConfig(env).host).toBe(host);
  });
});

describe("secrets from files (NAME_FILE)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-secrets-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secret = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("reads each secret from its file, without the file's last line break", () => {
    const config = loadConfig({
      ...without(LIVE, "PAYFAST_PASSPHRASE", "SMTP_URL"),
      PAYFAST_PASSPHRASE_FILE: secret("passphrase", "a passphrase from a file\n"),
      SMTP_URL_FILE: secret("smtp", "smtps://shop:from-file@mail.example.co.za:465\r\n"),
      DATABASE_URL_FILE: secret("database", "postgres://shop:from-file@db:5432/shop"),
    });
    expect(config.payfast.passphrase).toBe("a passphrase from a file");
    expect(config.mail.smtpUrl).toBe("smtps://shop:from-file@mail.example.co.za:465");
    expect(config.databaseUrl).toBe("postgres://shop:from-file@db:5432/shop");
  });

  it("checks a secret from a file as it checks one from the environment", () => {
    const message = refusal({
      ...without(LIVE, "SMTP_URL"),
      SMTP_URL_FILE: secret("plain-smtp", "smtp://mail.example.co.za?ignoreTLS=true\n"),
    }).message;
    expect(message).toMatch(/SMTP_URL: ignoreTLS=true would send/);
  });

  it("reads METRICS_TOKEN and S3_URL from their files too (issue 39)", () => {
    const config = loadConfig({
      METRICS_TOKEN_FILE: secret("metrics", "a-metrics-token-of-thirty-two-chars\n"),
      S3_URL_FILE: secret("s3", "https://KEYID:from-file@s3.af-south-1.amazonaws.com/shop-photos?region=af-south-1\n"),
    });
    expect(config.metricsToken).toBe("a-metrics-token-of-thirty-two-chars");
    expect(config.media.s3).toMatchObject({
      bucket: "shop-photos",
      accessKeyId: "KEYID",
      secretAccessKey: "from-file",
    });
  });

  it("checks a METRICS_TOKEN from a file as one from the environment, without printing it", () => {
    const message = refusal({ METRICS_TOKEN_FILE: secret("short-metrics", "sh0rt-s3cr3t\n") }).message;
    expect(message).toMatch(/METRICS_TOKEN: must be at least 24 characters/);
    expect(message).not.toContain("sh0rt-s3cr3t");
  });

  it.each(["PAYFAST_PASSPHRASE", "SMTP_URL", "DATABASE_URL", "METRICS_TOKEN", "S3_URL"])(
    "refuses %s given both ways, naming both",
    (name) => {
      const both = { [name]: "postgres://x@db/shop", [`${name}_FILE`]: secret(`both-${name}`, "postgres://y@db/shop") };
      expect(refusal(both).message).toMatch(new RegExp(`${name}_FILE: ${name} is set as well`));
    },
  );

  it("refuses a secret file it cannot read, naming the file and not guessing", () => {
    const missing = path.join(dir, "no-such-file");
    const message = refusal({ ...without(LIVE, "PAYFAST_PASSPHRASE"), PAYFAST_PASSPHRASE_FILE: missing }).message;
    expect(message).toContain(`PAYFAST_PASSPHRASE_FILE: cannot read ${missing} (ENOENT)`);
    // The passphrase it could not read is missing, which live mode refuses as well.
    expect(message).toMatch(/PAYFAST_PASSPHRASE: required when PAYFAST_MODE=live/);
  });

  it("never prints the secret it read when the secret is malformed", () => {
    const message = refusal({ DATABASE_URL_FILE: secret("bad-url", "not a url but a s3cr3t") }).message;
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).not.toContain("s3cr3t");
  });
});

describe("the seller (ECTA s43(1))", () => {
  it.each<[string, string]>([
    ["SHOP_LEGAL_NAME", "SHOP_LEGAL_NAME: required when PAYFAST_MODE=live"],
    ["SHOP_LEGAL_STATUS", "SHOP_LEGAL_STATUS: required when PAYFAST_MODE=live"],
    ["SHOP_SERVICE_ADDRESS", "SHOP_SERVICE_ADDRESS: required when PAYFAST_MODE=live"],
    ["SHOP_REGISTRATION_NUMBER", "SHOP_REGISTRATION_NUMBER: required when PAYFAST_MODE=live"],
    ["SHOP_DIRECTORS", "SHOP_DIRECTORS: required when PAYFAST_MODE=live"],
  ])("refuses live mode without %s, naming it", (setting, message) => {
    expect(refusal(without(LIVE, setting)).message).toContain(message);
  });

  it.each<[string, string]>([
    ["SHOP_ADDRESS", "SHOP_ADDRESS: required when PAYFAST_MODE=live"],
    ["SHOP_PHONE", "SHOP_PHONE: required when PAYFAST_MODE=live"],
    ["SHOP_EMAIL", "SHOP_EMAIL: required when PAYFAST_MODE=live"],
  ])("refuses live mode without %s instead of taking the demo shop's, naming it", (setting, message) => {
    expect(refusal(without(LIVE, setting)).message).toContain(message);
  });

  it.each<[string, string, string]>([
    [
      "SHOP_ADDRESS",
      "14 Loop Street, Cape Town, 8001",
      "SHOP_ADDRESS: 14 Loop Street, Cape Town, 8001 is the demo shop's address",
    ],
    ["SHOP_PHONE", "021 555 0134", "SHOP_PHONE: 021 555 0134 is the demo shop's phone"],
    ["SHOP_EMAIL", "Hello@SnugAndDry.co.za", "SHOP_EMAIL: Hello@SnugAndDry.co.za is the demo shop's e-mail address"],
    [
      "SHOP_SERVICE_ADDRESS",
      "14 Loop Street, Cape Town, 8001",
      "SHOP_SERVICE_ADDRESS: 14 Loop Street, Cape Town, 8001 is the demo shop's address",
    ],
  ])("refuses live mode with %s set to the demo shop's, naming it", (setting, value, message) => {
    const text = refusal({ ...LIVE, [setting]: value }).message;
    expect(text).toContain(message);
    // Only that setting is named: each demo detail is refused on its own.
    expect(text.split("\n").filter((line) => line.startsWith("  "))).toHaveLength(1);
  });

  it("names every demo contact detail of a live shop in one refusal", () => {
    const lines = refusal(without(LIVE, "SHOP_ADDRESS", "SHOP_PHONE", "SHOP_EMAIL"))
      .message.split("\n")
      .filter((line) => line.startsWith("  "));
    expect(lines.map((line) => line.trim().split(":")[0])).toEqual(["SHOP_ADDRESS", "SHOP_PHONE", "SHOP_EMAIL"]);
  });

  it("takes the demo shop's contact details in a test mode, and the shop's own in live mode", () => {
    expect(loadConfig({}).shop).toMatchObject({
      email: "hello@snuganddry.co.za",
      phone: "+27 21 555 0134",
      address: "14 Loop Street, Cape Town, 8001",
    });
    expect(loadConfig(LIVE).shop).toMatchObject({
      email: "orders@umbrella-nappies.co.za",
      phone: "+27 21 948 2210",
      address: "Unit 4, 22 Voortrekker Road, Bellville, 7530",
    });
  });

  it.each(["(Pty) Ltd", "Ltd", "Inc", "CC", "NPC", "Close Corporation"])(
    "asks a %s business for its registration number in live mode",
    (status) => {
      expect(refusal({ ...without(LIVE, "SHOP_REGISTRATION_NUMBER"), SHOP_LEGAL_STATUS: status }).message).toMatch(
        /SHOP_REGISTRATION_NUMBER: required/,
      );
    },
  );

  it("takes a sole proprietor live without a registration number or directors", () => {
    const config = loadConfig({
      ...without(LIVE, "SHOP_REGISTRATION_NUMBER", "SHOP_DIRECTORS"),
      SHOP_LEGAL_NAME: "Thandi Mokoena",
      SHOP_LEGAL_STATUS: "sole proprietor",
    });
    expect(config.seller).toMatchObject({
      demo: false,
      legalPerson: false,
      registrationNumber: null,
      directors: [],
      placeOfRegistration: null,
      informationOfficer: { name: "Thandi Mokoena", email: "orders@umbrella-nappies.co.za" },
    });
  });

  it("reads a live company's details, the Information Officer defaulting to its first director", () => {
    expect(loadConfig(LIVE).seller).toEqual({
      demo: false,
      legalName: "Umbrella Nappies Trading",
      legalStatus: "(Pty) Ltd",
      legalPerson: true,
      registrationNumber: "2019/123456/07",
      directors: ["Lindiwe Khumalo", "Johan van der Merwe"],
      placeOfRegistration: "South Africa",
      serviceAddress: "Unit 4, 22 Voortrekker Road, Bellville, 7530",
      informationOfficer: { name: "Lindiwe Khumalo", email: "orders@umbrella-nappies.co.za" },
    });
  });

  it("describes the demo business, and says so, when nothing is set in a test mode", () => {
    expect(loadConfig({}).seller).toMatchObject({
      demo: true,
      legalName: "Snug & Dry Demo Trading",
      legalStatus: "(Pty) Ltd",
      registrationNumber: "0000/000000/07",
      serviceAddress: "14 Loop Street, Cape Town, 8001",
    });
  });

  it.each<[string, Env, RegExp]>([
    ["a registration number in another format", { SHOP_REGISTRATION_NUMBER: "123456" }, /SHOP_REGISTRATION_NUMBER/],
    [
      "an Information Officer e-mail that is not one",
      { SHOP_INFORMATION_OFFICER_EMAIL: "io" },
      /SHOP_INFORMATION_OFFICER_EMAIL/,
    ],
  ])("refuses %s", (_name, env, message) => {
    expect(refusal(env).message).toMatch(message);
  });
});

describe("PLAN_NOTICE_MINUTES", () => {
  it("writes the next-box e-mails hourly by default, at most once a day, never with no pause", () => {
    expect(loadConfig({}).planNoticeMinutes).toBe(60);
    expect(loadConfig({ PLAN_NOTICE_MINUTES: "0.05" }).planNoticeMinutes).toBe(0.05);
    expect(loadConfig({ PLAN_NOTICE_MINUTES: "1440" }).planNoticeMinutes).toBe(1440);
    expect(refusal({ PLAN_NOTICE_MINUTES: "1441" }).message).toMatch(/PLAN_NOTICE_MINUTES/);
    expect(refusal({ PLAN_NOTICE_MINUTES: "0" }).message).toMatch(/PLAN_NOTICE_MINUTES/);
  });
});

describe("RETENTION_YEARS", () => {
  it("keeps orders' personal details 7 years (Companies Act s24) by default", () => {
    expect(loadConfig({}).retentionYears).toBe(7);
    expect(loadConfig({ RETENTION_YEARS: "" }).retentionYears).toBe(7);
    expect(loadConfig({ RETENTION_YEARS: "10" }).retentionYears).toBe(10);
  });

  it("refuses fewer than the 5 years tax law keeps records, naming the setting", () => {
    expect(loadConfig({ RETENTION_YEARS: "5" }).retentionYears).toBe(5);
    expect(refusal({ RETENTION_YEARS: "4" }).message).toMatch(/RETENTION_YEARS: must be at least 5: tax records/);
    expect(refusal({ RETENTION_YEARS: "5.5" }).message).toMatch(/RETENTION_YEARS: must be a whole number/);
    expect(refusal({ RETENTION_YEARS: "five" }).message).toMatch(/RETENTION_YEARS/);
  });
});

describe("live mode's PUBLIC_URL port", () => {
  it.each([
    "https://shop.example.co.za",
    "https://shop.example.co.za:443",
    "https://shop.example.co.za:80",
    "https://shop.example.co.za:8080",
    "https://shop.example.co.za:8081",
  ])("accepts %s, a port PayFast notifies", (publicUrl) => {
    expect(loadConfig({ ...LIVE, PUBLIC_URL: publicUrl }).publicUrl).toBe(publicUrl);
  });
});

describe("PayFast's AWS senders (WooCommerce gateway PR #471, confirmed by PayFast)", () => {
  it("lists 13.245.74.88 and the 21 addresses 3.163.232.237 to 3.163.252.237, all ending in .237", () => {
    const aws = PAYFAST_PUBLISHED_RANGES.filter((range) => range.startsWith("3.") || range.startsWith("13."));
    expect(aws).toHaveLength(22);
    expect(aws).toContain("13.245.74.88/32");
    expect(aws).toContain("3.163.232.237/32");
    expect(aws).toContain("3.163.252.237/32");
    expect(aws).not.toContain("3.163.253.237/32");
    expect(aws.filter((range) => range.startsWith("3.")).every((range) => range.endsWith(".237/32"))).toBe(true);
  });
});

describe("photo storage (MEDIA_DIR, S3_URL)", () => {
  it("keeps photos in DATA_DIR/media unless MEDIA_DIR says otherwise", () => {
    expect(loadConfig({ DATA_DIR: "/srv/shop" }).media).toEqual({
      dir: path.resolve("/srv/shop/media"),
      s3: undefined,
    });
    expect(loadConfig({ MEDIA_DIR: "/mnt/photos" }).media.dir).toBe(path.resolve("/mnt/photos"));
  });

  it("reads the bucket, region and keys from S3_URL", () => {
    const { s3 } = loadConfig({
      S3_URL: "https://KEYID:se%2Fcret@s3.af-south-1.amazonaws.com/shop-photos?region=af-south-1",
    }).media;
    expect(s3).toEqual({
      endpoint: "https://s3.af-south-1.amazonaws.com",
      bucket: "shop-photos",
      region: "af-south-1",
      accessKeyId: "KEYID",
      secretAccessKey: "se/cret",
    });
  });

  it.each([
    ["without keys", "https://s3.example.com/bucket", /access key ID and secret/],
    ["without a bucket", "https://id:secret@s3.example.com/", /bucket's name/],
    ["over plain http to another machine", "http://id:secret@s3.example.com/bucket", /must be https/],
  ])("refuses an S3_URL %s", (_name, url, message) => {
    expect(() => loadConfig({ S3_URL: url })).toThrow(message);
  });
});

describe("the backup folder's permissions (BACKUP_DIR, issue 39)", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "shop-backup-folder-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const folder = (name: string, mode: number) => {
    const dir = path.join(root, name);
    mkdirSync(dir);
    chmodSync(dir, mode);
    return dir;
  };

  it("starts with a folder only the shop's user can open, or one not made yet", () => {
    expect(loadConfig({ BACKUP_DIR: folder("own", 0o700) }).backup.dir).toBe(path.join(root, "own"));
    expect(loadConfig({ BACKUP_DIR: path.join(root, "not-yet") }).backup.dir).toBe(path.join(root, "not-yet"));
  });

  it.each([
    ["0710", 0o710],
    ["0750", 0o750],
    ["0701", 0o701],
    ["0777", 0o777],
  ])("refuses to start with a folder of mode %s, naming it and the fix", (name, mode) => {
    const dir = folder(`open-${name}`, mode);
    const message = refusal({ BACKUP_DIR: dir }).message;
    expect(message).toContain(`BACKUP_DIR: ${dir} is open to other users of this machine (mode ${name})`);
    expect(message).toContain(`chmod 700 '${dir}'`);
  });

  it("does not check a folder the shop makes no backups into (BACKUP_EVERY_HOURS=0)", () => {
    const dir = folder("elsewhere", 0o755);
    expect(loadConfig({ BACKUP_DIR: dir, BACKUP_EVERY_HOURS: "0" }).backup.dir).toBe(dir);
  });
});

describe("PAGE_CACHE_MB: the catalogue cache's budget", () => {
  it("is 64 MB unless set, and takes 1 to 4096 MB", () => {
    expect(loadConfig({}).pageCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ PAGE_CACHE_MB: "1" }).pageCacheBytes).toBe(1024 * 1024);
    expect(loadConfig({ PAGE_CACHE_MB: "4096" }).pageCacheBytes).toBe(4096 * 1024 * 1024);
  });

  it.each(["0", "4097", "1.5", "lots"])("refuses PAGE_CACHE_MB=%s", (value) => {
    expect(refusal({ PAGE_CACHE_MB: value }).message).toContain("PAGE_CACHE_MB");
  });
});

describe("COURIER_MODE", () => {
  it("uses the emulator by default, with the old flat prices", () => {
    const config = loadConfig({});
    expect(config.courier).toMatchObject({ mode: "local", pricing: "flat", cutoff: "12:00" });
    expect(config.courier.flatPricesCents).toEqual({
      door_economy: 7_500,
      door_express: 15_000,
      locker: 6_000,
      pickup_point: 6_500,
    });
  });

  it("refuses live and sandbox without the vendors' tokens and the collection code", () => {
    for (const mode of ["live", "sandbox"]) {
      expect(() => loadConfig({ COURIER_MODE: mode })).toThrow(
        /SHIPLOGIC_API_TOKEN: required[\s\S]*TCG_LOCKER_API_KEY: required[\s\S]*PARGO_API_TOKEN: required[\s\S]*COURIER_COLLECTION_CODE: required[\s\S]*COURIER_WEBHOOK_SECRET: required/,
      );
    }
    const ok = loadConfig({
      COURIER_MODE: "live",
      SHIPLOGIC_API_TOKEN: "a",
      TCG_LOCKER_API_KEY: "b",
      PARGO_API_TOKEN: "c",
      COURIER_COLLECTION_CODE: "7441",
      COURIER_WEBHOOK_SECRET: "a-long-webhook-secret",
    });
    expect(ok.courier.baseUrls.shiplogic).toBe("https://api.shiplogic.com");
  });

  it("refuses the emulator in a live shop, naming manual and live as the ways out", () => {
    const refused = refusal(without(LIVE, "COURIER_MODE"));
    expect(refused.message).toMatch(/COURIER_MODE: local is the courier emulator, refused when PAYFAST_MODE=live/);
    expect(refused.message).toMatch(/COURIER_MODE=manual[\s\S]*COURIER_MODE=live/);
    expect(refusal({ ...LIVE, COURIER_MODE: "local" }).message).toMatch(/COURIER_MODE: local/);
    expect(loadConfig(LIVE).courier.mode).toBe("manual");
  });

  it("ships by hand with COURIER_MODE=manual: no token needed, no courier reached, flat prices only", () => {
    const manual = loadConfig({ COURIER_MODE: "manual" });
    expect(manual.courier).toMatchObject({ mode: "manual", pricing: "flat", tokens: { shiplogic: "", pargo: "" } });
    expect(manual.courier.baseUrls).toEqual({ shiplogic: "", tcgLocker: "", pargo: "" });
    expect(() => loadConfig({ COURIER_MODE: "manual", DELIVERY_PRICING: "live" })).toThrow(
      /DELIVERY_PRICING: live asks a courier for rates; COURIER_MODE=manual has none/,
    );
    expect(() => loadConfig({ COURIER_MODE: "by-hand" })).toThrow(/COURIER_MODE/);
  });

  it("refuses a flat price that is not an amount, and a cut-off that is not a time", () => {
    expect(() => loadConfig({ DELIVERY_FLAT_LOCKER: "sixty" })).toThrow(/DELIVERY_FLAT_LOCKER: must be an amount/);
    expect(() => loadConfig({ DELIVERY_CUTOFF: "24:00" })).toThrow(/DELIVERY_CUTOFF/);
    expect(loadConfig({ DELIVERY_FLAT_LOCKER: "49.90" }).courier.flatPricesCents.locker).toBe(4_990);
  });
});
