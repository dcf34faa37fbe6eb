import { promises as dns } from "node:dns";
import { BlockList, isIP } from "node:net";
import type { FastifyBaseLogger } from "fastify";

/** How often PayFast's host names are looked up again. */
const REFRESH_MS = 10 * 60_000;
const LOOKUP_TIMEOUT_MS = 5_000;

/** Looks up every IPv4 and IPv6 address of a host name. */
export type ResolveHost = (host: string) => Promise<string[]>;

/**
 * Asks the DNS for every A and AAAA record (dns.resolve4/6, not dns.lookup: getaddrinfo truncates
 * long answers on some platforms, and w2w.payfast.co.za has 38 records). Throws only when neither
 * family answered.
 */
export const resolveWithSystemDns: ResolveHost = async (host) => {
  const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
  if (v4.status === "rejected" && v6.status === "rejected") throw v4.reason;
  return [...(v4.status === "fulfilled" ? v4.value : []), ...(v6.status === "fulfilled" ? v6.value : [])];
};

/** An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d. */
function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/** A matcher for CIDR ranges or single addresses ("197.97.145.144/28", "::1/128", "144.126.193.139"). */
export function rangeMatcher(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges) {
    const [address = "", prefixText] = range.split("/");
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
      throw new Error(`PAYFAST_VALID_IPS: "${range}" is not an IP address or CIDR range`);
    }
    list.addSubnet(address, prefix, family === 6 ? "ipv6" : "ipv4");
  }
  return (address: string) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * Where PayFast's notifications may come from: the configured ranges plus the addresses PayFast's
 * own host names resolve to now (PayFast's SDK and the WooCommerce gateway check www, sandbox,
 * w1w and w2w.payfast.co.za by DNS, and PayFast sends from AWS addresses that no published range
 * covers). The names are looked up at start and every ten minutes in the background, never
 * while a notification waits; a failed lookup keeps that host's last good answer.
 */
export class ItnSources {
  readonly #inRanges: (address: string) => boolean;
  readonly #hosts: readonly string[];
  readonly #resolve: ResolveHost;
  readonly #log: FastifyBaseLogger;
  readonly #onRefreshed: ((resolvedHosts: number) => Promise<void>) | undefined;
  /** Each host's last good answer. */
  readonly #resolved = new Map<string, readonly string[]>();
  #addresses = new Set<string>();
  #timer: NodeJS.Timeout | null = null;

  constructor(options: {
    ranges: readonly string[];
    hosts: readonly string[];
    resolve?: ResolveHost | undefined;
    log: FastifyBaseLogger;
    /** After each refresh: how many hosts resolved this time (0: none of PayFast's hosts resolves now). */
    onRefreshed?: (resolvedHosts: number) => Promise<void>;
  }) {
    this.#inRanges = rangeMatcher(options.ranges);
    this.#hosts = options.hosts;
    this.#resolve = options.resolve ?? resolveWithSystemDns;
    this.#log = options.log;
    this.#onRefreshed = options.onRefreshed;
  }

  /** Looks the hosts up once, then keeps refreshing them until `stop`. */
  async start(): Promise<void> {
    if (this.#hosts.length === 0) return;
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Looks every host up again; a host whose lookup fails keeps its last good addresses. */
  async refresh(): Promise<void> {
    let resolvedNow = 0;
    await Promise.all(
      this.#hosts.map(async (host) => {
        try {
          const addresses = await withTimeout(this.#resolve(host), LOOKUP_TIMEOUT_MS);
          const valid = addresses.map(plainAddress).filter((address) => isIP(address) !== 0);
          if (valid.length === 0) throw new Error("no addresses");
          this.#resolved.set(host, valid);
          resolvedNow += 1;
        } catch (error) {
          const kept = this.#resolved.get(host)?.length ?? 0;
          this.#log.warn(
            { host, err: error, kept },
            "PayFast source check: could not look up a PayFast host; keeping its last good addresses",
          );
        }
      }),
    );
    this.#addresses = new Set([...this.#resolved.values()].flat());
    await this.#onRefreshed?.(resolvedNow);
  }

  /** The addresses the host names resolved to, for the log and the tests. */
  resolvedAddresses(): string[] {
    return [...this.#addresses];
  }

  isPayfastSource(address: string): boolean {
    return this.#inRanges(address) || this.#addresses.has(plainAddress(address));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
