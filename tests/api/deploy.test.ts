import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "#server/platform/config.js";
import { LIVE_SELLER } from "../helpers/live-seller.js";

/**
 * No container runtime runs on our machines, so the deployment files are checked by reading them:
 * the compose file's wiring (docs/deploy.md), the Dockerfile's release and the systemd unit.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const deployDir = path.join(repoRoot, "deploy");
const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  env_file?: string | string[];
  secrets?: string[];
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string; interval?: string };
}
interface Compose {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
}

/** The PostgreSQL major of CI's external server (.ci/run: the one at 127.0.0.1:5432). */
const CI_POSTGRES_MAJOR = 15;
const compose = parse(read("deploy/compose.yaml"), { merge: true }) as Compose;
const { services } = compose;
const caddyfile = read("deploy/Caddyfile");
const shopNames = Object.keys(services).filter((name) => services[name]?.image?.startsWith("snug-and-dry"));
const shops = shopNames.map((name) => services[name] as Service);
const env = (service: Service) => service.environment ?? {};

/** A named volume mounted at `target` in the service, or undefined. */
function namedVolumeAt(service: Service, target: string): string | undefined {
  const mount = service.volumes?.find((entry) => entry.split(":")[1] === target);
  const source = mount?.split(":")[0];
  return source && !source.startsWith(".") && !source.startsWith("/") ? source : undefined;
}

describe("deploy/compose.yaml", () => {
  it("runs two instances of the shop's image, built from the Dockerfile", () => {
    expect(shopNames).toHaveLength(2);
    for (const shop of shops) {
      expect(shop.build).toEqual({ context: "..", dockerfile: "Dockerfile" });
      expect(shop.image).toMatch(/^snug-and-dry:\$\{SHOP_VERSION:\?.+\}$/);
    }
    // The example names this release, so a copy of it builds and tags the image being deployed.
    const { version } = JSON.parse(read("package.json")) as { version: string };
    expect(readFileSync(path.join(deployDir, ".env.example"), "utf8")).toMatch(
      new RegExp(`^SHOP_VERSION=${version}$`, "m"),
    );
  });

  it("runs PostgreSQL of the major CI tests the shop on", () => {
    // CI's external PostgreSQL at 127.0.0.1:5432 is 15 (tests/api/backup.test.ts restores into it).
    expect(services.postgres?.image).toBe(`postgres:${CI_POSTGRES_MAJOR}`);
    expect(read("docs/deploy.md")).toContain(`PostgreSQL ${CI_POSTGRES_MAJOR}`);
  });
  it("gives both instances one PostgreSQL, by a DATABASE_URL read from the same secret file", () => {
    const databases = Object.entries(services).filter(([, service]) => service.image?.startsWith("postgres:"));
    expect(databases).toHaveLength(1);
    const [databaseName] = databases[0] as [string, Service];
    for (const shop of shops) {
      expect(env(shop).DATABASE_URL).toBeUndefined();
      expect(env(shop).DATABASE_URL_FILE).toBe("/run/secrets/database_url");
      expect(shop.secrets).toContain("database_url");
      expect(shop.depends_on?.[databaseName]).toEqual({ condition: "service_healthy" });
    }
    expect(compose.secrets.database_url?.file).toBe("./secrets/database_url");
  });

  it("keeps every secret in a file: the PayFast passphrase, the SMTP URL, the database's password", () => {
    for (const shop of shops) {
      for (const name of ["PAYFAST_PASSPHRASE", "SMTP_URL"]) {
        const secret = name.toLowerCase();
        expect(env(shop)[name], name).toBeUndefined();
        expect(env(shop)[`${name}_FILE`]).toBe(`/run/secrets/${secret}`);
        expect(shop.secrets).toContain(secret);
        expect(compose.secrets[secret]?.file).toBe(`./secrets/${secret}`);
      }
    }
    const postgres = services.postgres as Service;
    expect(env(postgres).POSTGRES_PASSWORD).toBeUndefined();
    expect(env(postgres).POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres_password");
    expect(compose.secrets.postgres_password?.file).toBe("./secrets/postgres_password");
  });

  it("puts Caddy alone on the internet, in front of both instances, which trust that one proxy", () => {
    const published = Object.entries(services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name]) => name)).toEqual(["caddy"]);
    expect(services.caddy?.ports).toEqual(expect.arrayContaining(["80:80", "443:443"]));
    for (const shop of shops) {
      expect(env(shop).TRUST_PROXY).toBe("1");
      expect(env(shop).HOST).toBe("0.0.0.0");
      expect(shop.expose).toEqual([env(shop).PORT]);
    }
    const upstreams = caddyfile
      .match(/reverse_proxy\s+([^{\n]+)/)?.[1]
      ?.trim()
      .split(/\s+/);
    expect(upstreams?.sort()).toEqual(shopNames.map((name) => `${name}:${env(services[name] as Service).PORT}`).sort());
    // Automatic TLS: a site address that is a domain name, no `tls internal` or http-only site.
    expect(caddyfile).toMatch(/^\{\$SHOP_DOMAIN\} \{/m);
    expect(caddyfile).not.toMatch(/tls internal|http:\/\//);
    expect(services.caddy?.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
  });

  it("health-checks every service, and Caddy routes only to healthy instances", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck ?? name === "caddy", `${name} has a health check`).toBeTruthy();
    }
    for (const shop of shops) {
      expect(JSON.stringify(shop.healthcheck?.test)).toContain(`http://127.0.0.1:${env(shop).PORT}/api/health`);
    }
    expect(JSON.stringify(services.postgres?.healthcheck?.test)).toContain("pg_isready");
    // The load balancer sends shoppers only to a ready instance (docs/operations.md).
    expect(caddyfile).toMatch(/health_uri \/api\/health\/ready$/m);
    for (const name of shopNames) expect(services.caddy?.depends_on?.[name]).toEqual({ condition: "service_healthy" });
  });

  it("keeps the database's files, each instance's data and Caddy's certificates on named volumes", () => {
    const mounts: [string, string][] = [
      ["postgres", "/var/lib/postgresql/data"],
      ["caddy", "/data"],
      ["caddy", "/config"],
      ...shopNames.map((name): [string, string] => [name, env(services[name] as Service).DATA_DIR as string]),
    ];
    const used = mounts.map(([name, target]) => {
      const volume = namedVolumeAt(services[name] as Service, target);
      expect(volume, `${name}:${target}`).toBeDefined();
      expect(Object.keys(compose.volumes)).toContain(volume);
      return volume;
    });
    // Never one volume for two services' data (two instances on one DATA_DIR would share one lock).
    expect(new Set(used).size).toBe(used.length);
  });

  it("gives both instances one photo volume, so a photo uploaded through one is served by the other", () => {
    const volumes = shopNames.map((name) => {
      const target = env(services[name] as Service).MEDIA_DIR as string;
      expect(target, name).toBeDefined();
      return namedVolumeAt(services[name] as Service, target);
    });
    expect(volumes[0]).toBeDefined();
    expect(new Set(volumes)).toEqual(new Set([volumes[0]]));
    expect(Object.keys(compose.volumes)).toContain(volumes[0]);
  });

  it("gives both instances one backup volume at BACKUP_DIR, apart from their data, which the image makes 0700 for the shop's user", () => {
    const volumes = shopNames.map((name) => {
      const service = services[name] as Service;
      const target = env(service).BACKUP_DIR as string;
      expect(target, name).toBeDefined();
      // Hourly backups (the default): the job is on, and its lock makes one backup a slot between them.
      expect(env(service).BACKUP_EVERY_HOURS ?? "1", name).not.toBe("0");
      expect(namedVolumeAt(service, target), name).not.toBe(namedVolumeAt(service, env(service).DATA_DIR as string));
      return namedVolumeAt(service, target);
    });
    expect(volumes[0]).toBeDefined();
    expect(new Set(volumes)).toEqual(new Set([volumes[0]]));
    expect(Object.keys(compose.volumes)).toContain(volumes[0]);
    const target = env(shops[0] as Service).BACKUP_DIR as string;
    expect(read("Dockerfile")).toMatch(new RegExp(`chown node:node [^\n]*${target}[^\n]*&& chmod 700 ${target}`));
  });

  describe("the instances' settings pass the shop's own checks", () => {
    const secrets = mkdtempSync(path.join(os.tmpdir(), "shop-compose-secrets-"));
    afterAll(() => rmSync(secrets, { recursive: true, force: true }));

    it("starts live, on 0.0.0.0, behind one proxy, with its secrets from the files", () => {
      const shop = shops[0] as Service;
      const files: Record<string, string> = {
        database_url: "postgres://shop:a-password@postgres:5432/shop\n",
        payfast_passphrase: "a long and secret passphrase\n",
        smtp_url: "smtps://shop:mail-secret@smtp.example.co.za:465\n",
        totp_encryption_key: `${Buffer.alloc(32, 9).toString("base64")}\n`,
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(path.join(secrets, name), text);
      const fromCompose = Object.fromEntries(
        Object.entries(env(shop)).map(([name, value]) => [
          name,
          value.replace("/run/secrets", secrets).replace(/\$\{SHOP_DOMAIN:\?[^}]*\}/, "shop.example.co.za"),
        ]),
      );
      const config = loadConfig({
        ...fromCompose,
        // What the owner fills in deploy/shop.env.
        PAYFAST_MERCHANT_ID: "10012345",
        PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
        ...LIVE_SELLER,
        COURIER_MODE: "manual",
      });
      expect(config.payfast.mode).toBe("live");
      expect(config.publicUrl).toBe("https://shop.example.co.za");
      expect(config.host).toBe("0.0.0.0");
      expect(config.trustProxy).toBe(1);
      expect(config.databaseUrl).toBe("postgres://shop:a-password@postgres:5432/shop");
      expect(config.payfast.passphrase).toBe("a long and secret passphrase");
      expect(config.mail.smtpUrl).toBe("smtps://shop:mail-secret@smtp.example.co.za:465");
      expect(config.adminSecondFactor.keys.current).toEqual(Buffer.alloc(32, 9));
    });
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runStage = stages.at(-1) ?? "";

  it("builds the release with the script CI checks, in a stage of its own", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/^RUN sh scripts\/release\.sh \/release$/m);
    expect(runStage).toMatch(/^COPY --from=build \/release\/ \/app\/$/m);
  });

  it("runs the release as an unprivileged user, with a health check", () => {
    expect(runStage).toMatch(/^USER node$/m);
    // package.json's "bin" on the PATH: `docker compose exec shop-1 snug-and-dry backup`.
    const { bin } = JSON.parse(read("package.json")) as { bin: Record<string, string> };
    expect(bin["snug-and-dry"]).toBe("dist/server/cli/main.js");
    expect(runStage).toContain("ln -s /app/dist/server/cli/main.js /usr/local/bin/snug-and-dry");
    expect(runStage).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
    expect(runStage).toMatch(/^CMD \["node", "dist\/server\/main\.js"\]$/m);
    expect(runStage).not.toMatch(/npm (ci|install)|tsx|vite/);
  });

  it("keeps private and built files out of the image's build context", () => {
    const ignored = read(".dockerignore").split("\n");
    expect(ignored).toEqual(expect.arrayContaining([".env", "node_modules", "dist", "data", "deploy/secrets"]));
  });
});

describe("deploy/snug-and-dry.service", () => {
  const unit = read("deploy/snug-and-dry.service");
  const service = parseUnit(unit);

  it("runs the same release as an unprivileged user, its secrets from files", () => {
    expect(service.command).toEqual(["/usr/bin/node", "dist/server/main.js"]);
    expect(unit).toMatch(/^WorkingDirectory=\/opt\/snug-and-dry\/current$/m);
    expect(unit).toMatch(/^User=snug$/m);
    expect(service.execEnv).toMatchObject({
      PAYFAST_PASSPHRASE_FILE: "%d/payfast_passphrase",
      SMTP_URL_FILE: "%d/smtp_url",
      TOTP_ENCRYPTION_KEY_FILE: "%d/totp_encryption_key",
    });
    for (const secret of ["PAYFAST_PASSPHRASE", "SMTP_URL", "DATABASE_URL"]) {
      expect(service.environment[secret]).toBeUndefined();
      expect(service.execEnv[secret]).toBeUndefined();
    }
  });

  it("lets the shop stop its own database: SIGTERM to the shop alone", () => {
    expect(unit).toMatch(/^KillMode=mixed$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
  });

  // systemd.exec(5): "Settings from these files override settings made with Environment=", whatever
  // the order of the lines; env(1) then sets its NAME=value arguments over what it was given.
  const unitOwned = { ...service.environment, ...service.execEnv };
  it.each([
    ["deploy/shop.env.example", [read("deploy/shop.env.example")]],
    [".env.example", [read(".env.example")]],
    ["both, one after the other", [read(".env.example"), read("deploy/shop.env.example")]],
  ])("keeps its own settings when its EnvironmentFile is %s", (_name, files) => {
    expect(Object.keys(unitOwned)).toEqual(
      expect.arrayContaining([
        "NODE_ENV",
        "DATA_DIR",
        "PAYFAST_PASSPHRASE_FILE",
        "SMTP_URL_FILE",
        "TOTP_ENCRYPTION_KEY_FILE",
      ]),
    );
    const seen = effectiveEnvironment(service, files);
    for (const [name, value] of Object.entries(unitOwned)) expect(seen[name], name).toBe(value);
    expect(service.environmentFiles).toEqual(["/etc/snug-and-dry/shop.env"]);
  });

  it("would lose them to .env.example if they were set with Environment= (the rule the unit works around)", () => {
    const naive = parseUnit(
      "[Service]\nEnvironment=DATA_DIR=/var/lib/snug-and-dry SMTP_URL_FILE=%d/smtp_url\nEnvironmentFile=/etc/x\nExecStart=/usr/bin/node dist/server/main.js\n",
    );
    const seen = effectiveEnvironment(naive, [read(".env.example")]);
    expect(seen.DATA_DIR).toBe("./data");
    expect(seen.SMTP_URL_FILE).toBe("");
  });
});

describe("memory settings (docs/decisions/052-page-cache-memory.md)", () => {
  it("are the same for npm start, the image and the systemd unit", () => {
    const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(scripts.start).toBe("MALLOC_ARENA_MAX=2 node --max-semi-space-size=2 scripts/start.mjs");
    const runStage =
      read("Dockerfile")
        .split(/^FROM /m)
        .at(-1) ?? "";
    expect(runStage).toMatch(/^ {4}MALLOC_ARENA_MAX=2 \\$/m);
    expect(runStage).toMatch(/^ {4}NODE_OPTIONS=--max-semi-space-size=2$/m);
    expect(parseUnit(read("deploy/snug-and-dry.service")).execEnv).toMatchObject({
      MALLOC_ARENA_MAX: "2",
      NODE_OPTIONS: "--max-semi-space-size=2",
    });
  });
});

interface ParsedUnit {
  /** Environment= assignments, later ones winning. */
  environment: Record<string, string>;
  environmentFiles: string[];
  /** NAME=value arguments of an ExecStart= that runs /usr/bin/env. */
  execEnv: Record<string, string>;
  /** What ExecStart= finally runs. */
  command: string[];
}

/** Splits a unit file's value into words as systemd.syntax(7)'s quoting does (double and single quotes, no expansion). */
function unitWords(value: string): string[] {
  const words: string[] = [];
  for (const match of value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3] ?? ""));
  }
  return words;
}

/** The [Service] section's environment and command: lines ending in a backslash continue on the next (systemd.syntax(7)). */
function parseUnit(text: string): ParsedUnit {
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const parsed: ParsedUnit = { environment: {}, environmentFiles: [], execEnv: {}, command: [] };
  let section = "";
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      section = line;
      continue;
    }
    if (section !== "[Service]") continue;
    const [key, ...rest] = line.split("=");
    const value = rest.join("=").trim();
    if (key === "Environment") {
      // "If the empty string is assigned to this option, the list of environment variables is reset."
      if (value === "") parsed.environment = {};
      for (const word of unitWords(value)) {
        const at = word.indexOf("=");
        if (at > 0) parsed.environment[word.slice(0, at)] = word.slice(at + 1);
      }
    } else if (key === "EnvironmentFile") {
      parsed.environmentFiles.push(value.replace(/^-/, ""));
    } else if (key === "ExecStart") {
      const words = unitWords(value.replace(/^[-@:+!]+/, ""));
      if (words[0] === "/usr/bin/env") {
        words.shift();
        while (words[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
          const word = words.shift() as string;
          const at = word.indexOf("=");
          parsed.execEnv[word.slice(0, at)] = word.slice(at + 1);
        }
      }
      parsed.command = words;
    }
  }
  return parsed;
}

/**
 * An EnvironmentFile= as systemd.exec(5) reads it: empty lines, lines without "=", and lines
 * starting with ";" or "#" are ignored; leading and trailing whitespace is dropped; a value in
 * single or double quotes is unquoted; a line ending in a backslash goes on to the next one.
 */
function parseEnvironmentFile(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const raw of text.replace(/\\\n/g, "").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";") || !line.includes("=")) continue;
    const at = line.indexOf("=");
    const name = line.slice(0, at).trim();
    let value = line.slice(at + 1).trim();
    const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(value) ?? /^'([^']*)'$/.exec(value);
    if (quoted) value = (quoted[1] ?? "").replace(/\\(["\\`$])/g, "$1");
    found[name] = value;
  }
  return found;
}

/**
 * What the shop's process sees: Environment= first, then each EnvironmentFile= in order over it
 * ("Settings from these files override settings made with Environment=. If the same variable is set
 * twice from these files, the files will be read in the order they are specified and the later
 * setting will override the earlier setting": systemd.exec(5)), then env(1)'s own arguments.
 */
function effectiveEnvironment(unit: ParsedUnit, environmentFiles: string[]): Record<string, string> {
  let seen = { ...unit.environment };
  for (const file of environmentFiles) seen = { ...seen, ...parseEnvironmentFile(file) };
  return { ...seen, ...unit.execEnv };
}

it("the deployment's example files exist for every file it reads", () => {
  const shopEnv = readFileSync(path.join(deployDir, "shop.env.example"), "utf8");
  for (const name of ["PAYFAST_MERCHANT_ID", ...Object.keys(LIVE_SELLER)]) {
    expect(shopEnv).toMatch(new RegExp(`^${name}=`, "m"));
  }
  expect(readFileSync(path.join(deployDir, ".env.example"), "utf8")).toMatch(/^SHOP_DOMAIN=/m);
  expect(services["shop-1"]?.env_file).toBe("shop.env");
});

describe("the project's own scripts", () => {
  /** Every .mjs file under scripts/, bench/ and tests/ (the commands npm start, npm test and npm run bench run). */
  const scriptFiles = (dir: string): string[] =>
    readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : scriptFiles(relative);
      return entry.name.endsWith(".mjs") ? [relative] : [];
    });

  it("import only files that exist (npm start, the test runner and the benchmarks load them unbuilt)", () => {
    const files = ["scripts", "bench", "tests"].flatMap(scriptFiles);
    expect(files).toContain(path.join("scripts", "start.mjs"));
    const missing = files.flatMap((file) =>
      [...read(file).matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)]
        .map((match) => path.join(path.dirname(file), match[1] as string))
        .filter((target) => !existsSync(path.join(repoRoot, target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(missing).toEqual([]);
  });
});
