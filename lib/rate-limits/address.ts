import { isIP } from "node:net";

/**
 * The request header that carries the client's address to route handlers. The launcher
 * (scripts/start.ts) always sets it from the connection (or, with TRUST_PROXY, from what the
 * trusted proxies forwarded), replacing whatever the client sent: Next.js would otherwise pass
 * a client's own X-Forwarded-For through unchanged.
 */
export const CLIENT_ADDRESS_HEADER = "x-forwarded-for";

const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/**
 * The client's address. Without trusted proxies, the connection's peer. Behind `trustedProxies`
 * reverse proxies, each appending the address it saw to X-Forwarded-For, the entry that many
 * steps from the right of [...X-Forwarded-For, peer]; entries left of it are the client's to
 * choose, so they are never read.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trustedProxies: number): string {
  // Without trusted proxies (every request of a player, unless behind one): the peer, read at once.
  if (!trustedProxies) return (peer?.startsWith("::ffff:") ? unmapped(peer) : peer) || "unknown";
  const chain = [...[forwardedFor ?? []].flat().flatMap((v) => v.split(",")), peer ?? ""].map((a) => unmapped(a.trim()));
  let address = chain.at(-1)!;
  for (let hop = 1; hop <= trustedProxies && hop < chain.length; hop++) {
    const next = chain[chain.length - 1 - hop];
    if (!isIP(next)) break; // a proxy that forwards junk: trust what we know
    address = next;
  }
  return address || "unknown";
}

/**
 * What a per-address limit counts: an IPv4 address, or an IPv6 address's /64 (one host
 * usually has a whole /64 and could otherwise take a fresh address for every request).
 */
export function addressSubject(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
