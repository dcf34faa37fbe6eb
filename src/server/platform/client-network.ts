import { isIP } from "node:net";

/**
 * Whose budget a client address spends: an IPv4 address (or an IPv4-mapped IPv6 one) on its own,
 * an IPv6 address by its /64, since one subscriber is handed a whole /64 and could otherwise
 * take a fresh address, and a fresh budget, for every attempt.
 */
export function clientNetwork(ip: string): string {
  if (isIP(ip) === 4) return ip;
  const hextets = ipv6Hextets(ip);
  if (!hextets) return ip;
  if (hextets.slice(0, 5).every((part) => part === 0) && hextets[5] === 0xffff) {
    const [high = 0, low = 0] = hextets.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${hextets
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address ("::" expanded, a trailing IPv4 part, a zone dropped). */
function ipv6Hextets(ip: string): number[] | null {
  const address = ip.split("%")[0] ?? "";
  if (isIP(address) !== 6) return null;
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.map((group) => Number.parseInt(group, 16));
}
