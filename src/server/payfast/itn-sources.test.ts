import { promises as dns } from "node:dns";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it, vi } from "vitest";
import { loadConfig } from "../platform/config.js";
import { ItnSources, rangeMatcher, resolveWithSystemDns } from "./itn-sources.js";

describe("ITN source ranges", () => {
  const published = rangeMatcher(loadConfig({ PAYFAST_MODE: "sandbox" }).payfast.validRanges);
  const local = rangeMatcher(loadConfig({}).payfast.validRanges);

  it("accepts PayFast's published addresses and nothing else in sandbox and live mode", () => {
    expect(published("197.97.145.144")).toBe(true);
    expect(published("197.97.145.159")).toBe(true);
    expect(published("197.97.145.160")).toBe(false);
    expect(published("41.74.179.200")).toBe(true);
    expect(published("102.216.36.130")).toBe(true);
    expect(published("144.126.193.139")).toBe(true);
    expect(published("144.126.193.140")).toBe(false);
    expect(published("127.0.0.1")).toBe(false);
    expect(published("::ffff:197.97.145.150")).toBe(true);
    // PayFast's AWS senders: 13.245.74.88 and 3.163.232.237 ... 3.163.252.237.
    expect(published("13.245.74.88")).toBe(true);
    expect(published("13.245.74.89")).toBe(false);
    for (let third = 232; third <= 252; third++) expect(published(`3.163.${third}.237`)).toBe(true);
    expect(published("3.163.231.237")).toBe(false);
    expect(published("3.163.253.237")).toBe(false);
    expect(published("3.163.240.236")).toBe(false);
  });

  it("accepts only loopback in local mode", () => {
    expect(local("127.0.0.1")).toBe(true);
    expect(local("::1")).toBe(true);
    expect(local("::ffff:127.0.0.1")).toBe(true);
    expect(local("10.0.0.1")).toBe(false);
    expect(local("garbage")).toBe(false);
  });

  it("refuses a range that is not an address or CIDR", () => {
    expect(() => rangeMatcher(["10.0.0.0/33"])).toThrow(/PAYFAST_VALID_IPS/);
    expect(() => rangeMatcher(["payfast.co.za"])).toThrow(/PAYFAST_VALID_IPS/);
  });
});

const silent = { warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

describe("PayFast's hosts as ITN sources", () => {
  it("accepts the addresses PayFast's hosts resolve to, besides the ranges", async () => {
    const sources = new ItnSources({
      ranges: ["197.97.145.144/28"],
      hosts: ["www.payfast.co.za", "w1w.payfast.co.za"],
      resolve: async (host) =>
        host === "w1w.payfast.co.za" ? ["13.245.74.88", "::ffff:3.163.232.237"] : ["2001:db8::5"],
      log: silent,
    });
    await sources.start();
    sources.stop();
    expect(sources.isPayfastSource("13.245.74.88")).toBe(true);
    expect(sources.isPayfastSource("::ffff:13.245.74.88")).toBe(true);
    expect(sources.isPayfastSource("3.163.232.237")).toBe(true);
    expect(sources.isPayfastSource("2001:db8::5")).toBe(true);
    expect(sources.isPayfastSource("197.97.145.150")).toBe(true);
    expect(sources.isPayfastSource("13.245.74.89")).toBe(false);
  });

  it("keeps a host's last good addresses when a later lookup fails, and takes new ones when it works", async () => {
    let answer: () => Promise<string[]> = async () => ["13.245.74.88"];
    const sources = new ItnSources({ ranges: [], hosts: ["w1w.payfast.co.za"], resolve: () => answer(), log: silent });
    await sources.refresh();
    answer = async () => {
      throw new Error("getaddrinfo EAI_AGAIN w1w.payfast.co.za");
    };
    await sources.refresh();
    expect(sources.isPayfastSource("13.245.74.88")).toBe(true);
    answer = async () => [];
    await sources.refresh();
    expect(sources.isPayfastSource("13.245.74.88")).toBe(true);
    answer = async () => ["13.245.74.90"];
    await sources.refresh();
    expect(sources.isPayfastSource("13.245.74.88")).toBe(false);
    expect(sources.isPayfastSource("13.245.74.90")).toBe(true);
  });

  it("starts with the ranges alone when DNS fails from the start", async () => {
    const sources = new ItnSources({
      ranges: ["197.97.145.144/28"],
      hosts: ["www.payfast.co.za"],
      resolve: async () => {
        throw new Error("no DNS");
      },
      log: silent,
    });
    await sources.start();
    sources.stop();
    expect(sources.isPayfastSource("197.97.145.150")).toBe(true);
    expect(sources.resolvedAddresses()).toEqual([]);
  });

  it("never looks a host up while checking an address", async () => {
    const resolve = vi.fn(async () => ["13.245.74.88"]);
    const sources = new ItnSources({ ranges: [], hosts: ["www.payfast.co.za"], resolve, log: silent });
    await sources.refresh();
    for (let i = 0; i < 5; i++) sources.isPayfastSource("13.245.74.88");
    expect(resolve).toHaveBeenCalledTimes(1);
  });
});

describe("looking PayFast's hosts up", () => {
  it("asks the DNS for every A and AAAA record (resolve4/6), never getaddrinfo (lookup), which truncates long answers", async () => {
    const addresses = Array.from({ length: 38 }, (_, n) => `41.74.179.${n + 1}`);
    const resolve4 = vi.spyOn(dns, "resolve4").mockResolvedValue(addresses);
    const resolve6 = vi
      .spyOn(dns, "resolve6")
      .mockRejectedValue(Object.assign(new Error("no AAAA"), { code: "ENODATA" }));
    const lookup = vi.spyOn(dns, "lookup");
    try {
      expect(await resolveWithSystemDns("w2w.payfast.co.za")).toEqual(addresses);
      expect(resolve4).toHaveBeenCalledWith("w2w.payfast.co.za");
      expect(resolve6).toHaveBeenCalledWith("w2w.payfast.co.za");
      expect(lookup).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("fails only when neither family answers", async () => {
    vi.spyOn(dns, "resolve4").mockRejectedValue(new Error("SERVFAIL"));
    vi.spyOn(dns, "resolve6").mockResolvedValue(["2001:db8::1"]);
    try {
      expect(await resolveWithSystemDns("www.payfast.co.za")).toEqual(["2001:db8::1"]);
      vi.spyOn(dns, "resolve6").mockRejectedValue(new Error("SERVFAIL"));
      await expect(resolveWithSystemDns("www.payfast.co.za")).rejects.toThrow("SERVFAIL");
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("says after each refresh how many hosts resolved, 0 when none did", async () => {
    const counts: number[] = [];
    let failing = false;
    const sources = new ItnSources({
      ranges: [],
      hosts: ["www.payfast.co.za", "w1w.payfast.co.za"],
      resolve: async (host) => {
        if (failing) throw new Error("SERVFAIL");
        return host === "www.payfast.co.za" ? ["197.97.145.150"] : [];
      },
      log: silent,
      onRefreshed: async (resolved) => {
        counts.push(resolved);
      },
    });
    await sources.refresh();
    failing = true;
    await sources.refresh();
    expect(counts).toEqual([1, 0]);
    // The last good answer is still used meanwhile.
    expect(sources.isPayfastSource("197.97.145.150")).toBe(true);
  });
});
