/**
 * Which IP addresses svc may connect to for a repository's AI base URL (docs/security.md
 * "Hardening II, item 4"): only global unicast. Refused: this machine (loopback, unspecified),
 * private and shared networks (RFC 1918, CGNAT 100.64.0.0/10, unique-local fc00::/7), link-local
 * (169.254.0.0/16 with the cloud metadata service, fe80::/10), multicast, reserved and IETF
 * special-purpose blocks (IANA special-purpose registries, RFC 6890), and every IPv6 spelling
 * that carries an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16, Teredo) whose IPv4 address is refused — IPv4-compatible and
 * Teredo are refused outright. Pure functions: no DNS, no I/O.
 */
import { isIPv4, isIPv6 } from "node:net";

type Range4 = readonly [first: number, bits: number, name: string];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IPv4 blocks svc refuses, with the name a refusal gives (IANA IPv4 special-purpose registry). */
const REFUSED_V4: readonly Range4[] = [
  [v4(0, 0, 0, 0), 8, "this network (0.0.0.0/8)"],
  [v4(10, 0, 0, 0), 8, "a private network (10.0.0.0/8)"],
  [v4(100, 64, 0, 0), 10, "shared address space (CGNAT, 100.64.0.0/10)"],
  [v4(127, 0, 0, 0), 8, "loopback (127.0.0.0/8)"],
  [v4(169, 254, 0, 0), 16, "link-local (169.254.0.0/16, cloud metadata)"],
  [v4(172, 16, 0, 0), 12, "a private network (172.16.0.0/12)"],
  [v4(192, 0, 0, 0), 24, "IETF protocol assignments (192.0.0.0/24)"],
  [v4(192, 88, 99, 0), 24, "the 6to4 relay anycast (192.88.99.0/24)"],
  [v4(192, 168, 0, 0), 16, "a private network (192.168.0.0/16)"],
  [v4(198, 18, 0, 0), 15, "benchmarking (198.18.0.0/15)"],
  [v4(224, 0, 0, 0), 4, "multicast (224.0.0.0/4)"],
  [v4(240, 0, 0, 0), 4, "reserved (240.0.0.0/4, with broadcast)"],
];

function inRange(n: number, first: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (n & mask) >>> 0 === first;
}

function refusedV4(n: number): string | null {
  for (const [first, bits, name] of REFUSED_V4) if (inRange(n, first, bits)) return name;
  return null;
}

function parseV4(s: string): number {
  const [a, b, c, d] = s.split(".").map(Number) as [number, number, number, number];
  return v4(a, b, c, d);
}

/** The 8 16-bit groups of a valid IPv6 address (zone id dropped, a trailing dotted quad allowed). */
function parseV6(s: string): number[] {
  let text = s.replace(/%.*$/, "");
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad) {
    const n = parseV4(quad);
    text = `${text.slice(0, -quad.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (p: string | undefined) => (p ? p.split(":").map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

const embedded = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;

function refusedV6(g: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const viaV4 = (what: string, n: number) => {
    const name = refusedV4(n);
    return name ? `${what} of ${name}` : null;
  };
  if (zeroTo(8)) return "unspecified (::)";
  if (zeroTo(7) && g7 === 1) return "loopback (::1)";
  if (zeroTo(5) && g5 === 0xffff) return viaV4("IPv4-mapped IPv6", embedded(g6, g7));
  if (zeroTo(6)) return "IPv4-compatible IPv6 (::/96, deprecated)";
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return viaV4("IPv4-translated IPv6", embedded(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return viaV4("NAT64", embedded(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "local-use NAT64 (64:ff9b:1::/48)";
  if (g0 === 0x2002) return viaV4("6to4", embedded(g1, g2));
  if (g0 === 0x2001 && g1 < 0x200) return "IETF protocol assignments with Teredo (2001::/23)";
  if ((g0 & 0xfe00) === 0xfc00) return "unique-local IPv6 (fc00::/7)";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local IPv6 (fe80::/10)";
  if ((g0 & 0xffc0) === 0xfec0) return "site-local IPv6 (fec0::/10)";
  if ((g0 & 0xff00) === 0xff00) return "multicast IPv6 (ff00::/8)";
  if ((g0 & 0xe000) !== 0x2000) return "IPv6 outside global unicast (2000::/3)";
  return null;
}

/**
 * Why svc refuses to connect to `address` (an IPv4 or IPv6 address as DNS or URL parsing gives
 * it, IPv6 with or without brackets), as a short name such as "loopback (127.0.0.0/8)"; null for
 * a global unicast address. Something that is not an IP address at all is refused too.
 */
export function refusedAddressReason(address: string): string | null {
  const a = address.replace(/^\[|\]$/g, "");
  if (isIPv4(a)) return refusedV4(parseV4(a));
  if (isIPv6(a)) return refusedV6(parseV6(a.toLowerCase()));
  return "not an IP address";
}

/** True when svc refuses to connect to `address` for a repository's AI base URL (refusedAddressReason). */
export function isRefusedAddress(address: string): boolean {
  return refusedAddressReason(address) !== null;
}
