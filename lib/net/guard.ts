import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { config } from "@/lib/config";

/**
 * Outbound requests to URLs users give us (webhooks, imports, exports) must not
 * reach this machine or its private network unless the operator allows it
 * (ALLOW_PRIVATE_URLS). The check runs on the address actually connected to, so
 * DNS rebinding between a check and the connection does not get through.
 */
export class PrivateAddressError extends Error {
  constructor(readonly address: string, readonly host = address) {
    super(host === address ? `refusing to connect to private address ${address}` : `refusing to connect to ${host}: it resolves to private address ${address}`);
    this.name = "PrivateAddressError";
  }
}

/** This host, private, shared (CGNAT), link-local, IETF, benchmarking, multicast and reserved space. */
const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3],
];
/**
 * IPv6 ranges refused whole. Besides loopback, private and link-local space,
 * the IPv4-compatible (::/96, deprecated by RFC 4291), IPv4-translated
 * (::ffff:0:0:0/96), local-use NAT64 (64:ff9b:1::/48, a site's own translator
 * by definition), 6to4 (2002::/16, deprecated by RFC 7526) and Teredo
 * (2001::/32) forms: each reaches IPv4 space through some translator or relay,
 * none is how a real streaming service or receiver is reached today, and
 * refusing them whole does not depend on decoding each form right.
 * The well-known NAT64 prefix is not here: IPv6-only networks reach public IPv4
 * hosts through it, so its embedded address is checked instead (below).
 */
const BLOCKED_V6: [string, number][] = [
  ["::", 96], ["::ffff:0:0:0", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 32], ["2001:db8::", 32],
  ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
];
const blockList = new net.BlockList();
for (const [a, p] of BLOCKED_V4) blockList.addSubnet(a, p, "ipv4");
for (const [a, p] of BLOCKED_V6) blockList.addSubnet(a, p, "ipv6");

/** The eight 16-bit groups of an IPv6 address (a zone id is dropped), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, "");
  if (!net.isIPv6(text)) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part ? part.split(":").map((h) => parseInt(h, 16)) : []);
  const [head, tail] = text.split("::");
  if (tail === undefined) return groups(head);
  const [h, t] = [groups(head), groups(tail)];
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) return blockList.check(address, "ipv4");
  const g = ipv6Groups(address);
  if (!g) return true; // not an address at all: refuse rather than guess
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d, how dual-stack sockets show IPv4 peers) and
  // well-known NAT64 (64:ff9b::a.b.c.d): the connection ends at that IPv4 address.
  if ((zeros(0, 5) && g[5] === 0xffff) || (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6))) {
    return isPrivateAddress(ipv4Of(g[6], g[7]));
  }
  return blockList.check(g.map((x) => x.toString(16)).join(":"), "ipv6");
}

const allowPrivate = () => config().ALLOW_PRIVATE_URLS;

/** A DNS lookup that drops private answers (the connect-time check still has the last word). */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const usable = allowPrivate() ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
    if (!usable.length) return callback(new PrivateAddressError(addresses[0]?.address ?? hostname, hostname), "", 0);
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
    callback(null, usable[0].address, usable[0].family);
  });
};

/**
 * The address to connect to for a host (a name or an address in any spelling
 * getaddrinfo takes, e.g. 2130706433 or 0x7f.1), resolved as getaddrinfo
 * does: the first answer the guard allows. Throws PrivateAddressError when
 * every answer is private, or the resolver's error.
 */
export async function resolveHost(host: string): Promise<dns.LookupAddress> {
  const addresses = await dns.promises.lookup(host, { all: true });
  const usable = allowPrivate() ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
  if (!usable.length) throw new PrivateAddressError(addresses[0]?.address ?? host, host);
  return usable[0];
}

/**
 * Why a host (a name or an address, without brackets) is plainly private: a
 * literal private address in any spelling, localhost, or a name that resolves
 * only to private addresses. For a clear 400 at creation time; a name that does
 * not resolve now is accepted and checked again when connecting.
 */
export async function hostReason(host: string): Promise<string | undefined> {
  if (allowPrivate()) return undefined;
  if (/^localhost$|\.localhost$/i.test(host.replace(/\.$/, ""))) return `${host} is this machine`;
  if (net.isIP(host)) return isPrivateAddress(host) ? `${host} is a private address` : undefined;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return undefined; // unresolvable now: decided at connection time
  }
  if (!addresses.length || !addresses.every((a) => isPrivateAddress(a.address))) return undefined;
  // What getaddrinfo reads as an address (inet_aton: 2130706433, 0x7f.1, 0177.0.0.1, 127.1) is not a name.
  const spelling = /^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+)){0,3}$/i.test(host) ? "is" : "resolves to";
  return `${host} ${spelling} a private address (${addresses[0].address})`;
}

/** hostReason for an http(s) URL's host. */
export function privateHostReason(url: string): Promise<string | undefined> {
  return hostReason(new URL(url).hostname.replace(/^\[|\]$/g, ""));
}

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream;
  /** Idle time (no bytes either way) after which the request fails. */
  timeoutMs: number;
  /** Aborts the request and its response stream (e.g. a total deadline). */
  signal?: AbortSignal;
}

/** Connections are kept alive between requests: receivers and stores get many in a row. */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** An HTTP(S) request that refuses private addresses; resolves with the response stream. */
export function guardedRequest(url: string, opts: GuardedRequestOptions): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    // A literal address skips the lookup: refuse it before any connection is
    // made, so a refused address looks the same whether its port is open or not.
    const literal = target.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(literal) && !allowPrivate() && isPrivateAddress(literal)) return reject(new PrivateAddressError(literal));
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(target, {
      method: opts.method ?? "GET",
      headers: opts.headers,
      lookup: guardedLookup,
      timeout: opts.timeoutMs,
      agent: agents[target.protocol as keyof typeof agents],
      signal: opts.signal,
    });
    req.on("socket", (socket) => {
      const check = () => {
        const address = socket.remoteAddress ?? "";
        if (!allowPrivate() && isPrivateAddress(address)) req.destroy(new PrivateAddressError(address));
      };
      // Names and literals are checked before connecting; this is the last word on the
      // address actually connected to (kept-alive sockets included).
      if (socket.connecting) socket.once("connect", check);
      else check();
    });
    req.on("timeout", () => req.destroy(new Error(`timed out after ${opts.timeoutMs / 1000} s`)));
    req.on("error", reject);
    req.on("response", resolve);
    if (opts.body === undefined || typeof opts.body === "string" || Buffer.isBuffer(opts.body)) req.end(opts.body);
    else opts.body.pipe(req);
  });
}
