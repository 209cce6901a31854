import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import { config } from "@/lib/config";

/**
 * Outbound requests to URLs users give us (webhooks, imports, exports, caption
 * files, playback-policy webhooks, multistream pushes) must not reach this
 * machine, its private network or any special-purpose address unless the
 * operator allows it (ALLOW_PRIVATE_URLS). The check runs on the address
 * actually connected to, so DNS rebinding between a check and the connection
 * does not get through. This file is the one list of what is refused.
 */
export class PrivateAddressError extends Error {
  /** What the address is: "a private address" or "an address of this machine". */
  readonly refusal: string;
  constructor(
    readonly address: string,
    readonly host = address,
  ) {
    const refusal = addressRefusal(address) ?? PRIVATE;
    const named = refusal === PRIVATE ? `private address ${address}` : `${address}, ${refusal}`;
    super(host === address ? `refusing to connect to ${named}` : `refusing to connect to ${host}: it resolves to ${named}`);
    this.name = "PrivateAddressError";
    this.refusal = refusal;
  }
}

/**
 * Every block of the IANA IPv4 Special-Purpose Address Registry that is not
 * globally reachable, and multicast. A block is refused whole, even where the
 * registry lists a globally reachable anycast service inside it (192.0.0.9 PCP,
 * 192.0.0.10 TURN): no webhook receiver, file server or ingest lives there.
 * Globally reachable entries (AS112 192.31.196.0/24 and 192.175.48.0/24, AMT
 * 192.52.193.0/24) are ordinary public addresses and allowed.
 */
const SPECIAL_PURPOSE_V4: [prefix: string, length: number][] = [
  ["0.0.0.0", 8], // this network (RFC 791)
  ["10.0.0.0", 8], // private-use (RFC 1918)
  ["100.64.0.0", 10], // shared address space, carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback (RFC 1122)
  ["169.254.0.0", 16], // link local (RFC 3927)
  ["172.16.0.0", 12], // private-use (RFC 1918)
  ["192.0.0.0", 24], // IETF protocol assignments (RFC 6890)
  ["192.0.2.0", 24], // documentation, TEST-NET-1 (RFC 5737)
  ["192.88.99.0", 24], // 6to4 relay anycast, deprecated (RFC 7526)
  ["192.168.0.0", 16], // private-use (RFC 1918)
  ["198.18.0.0", 15], // benchmarking (RFC 2544)
  ["198.51.100.0", 24], // documentation, TEST-NET-2 (RFC 5737)
  ["203.0.113.0", 24], // documentation, TEST-NET-3 (RFC 5737)
  ["224.0.0.0", 4], // multicast (RFC 5771)
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 limited broadcast (RFC 1112, RFC 919)
];
/**
 * IPv6: everything outside global unicast, and the IANA IPv6 Special-Purpose
 * Address Registry's blocks inside it that are not globally reachable, each
 * refused whole as for IPv4 (2001::/23 also holds a few anycast services, AMT
 * and AS112). The IPv4-compatible, -translated, local-use NAT64, 6to4 and
 * Teredo forms are refused whole too: each reaches IPv4 space through some
 * translator or relay, none is how a real streaming service or receiver is
 * reached today, and refusing them whole does not depend on decoding each form
 * right. Two forms are decoded instead (addressRefusal): IPv4-mapped (how
 * dual-stack sockets show IPv4 peers) and the well-known NAT64 prefix
 * 64:ff9b::/96 (IPv6-only networks reach public IPv4 hosts through it).
 */
const SPECIAL_PURPOSE_V6: [prefix: string, length: number][] = [
  // Outside 2000::/3, the only space IANA allocates for global unicast (RFC 4291 2.4, IANA IPv6
  // Address Space): the registry's ::/128 and ::1/128, IPv4-compatible ::/96 (deprecated) and
  // IPv4-translated ::ffff:0:0:0/96 (RFC 6145), 64:ff9b:1::/48 local-use NAT64 (RFC 8215),
  // 100::/64 discard-only (RFC 6666), 100:0:0:1::/64 dummy prefix (RFC 9780), 5f00::/16 segment
  // routing SIDs (RFC 9602), fc00::/7 unique-local (RFC 4193), fe80::/10 link-local, fec0::/10
  // site-local (deprecated, RFC 3879), ff00::/8 multicast, and space reserved by the IETF.
  ["::", 3],
  ["4000::", 2],
  ["8000::", 1],
  // Inside it:
  ["2001::", 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID (RFC 2928)
  ["2001:db8::", 32], // documentation (RFC 3849)
  ["2002::", 16], // 6to4 (RFC 3056, deprecated by RFC 7526)
  ["3fff::", 20], // documentation (RFC 9637)
];
// Two lists: a BlockList checks IPv4 addresses against its IPv6 rules too (as IPv4-mapped), and ::/3 covers those.
const specialPurposeV4 = new net.BlockList();
for (const [a, p] of SPECIAL_PURPOSE_V4) specialPurposeV4.addSubnet(a, p, "ipv4");
const specialPurposeV6 = new net.BlockList();
for (const [a, p] of SPECIAL_PURPOSE_V6) specialPurposeV6.addSubnet(a, p, "ipv6");

/**
 * The addresses of this host's own interfaces, whatever their range (a public
 * address, or one in a range a deployment uses for its own network): a request
 * to one reaches this machine's services. Read again at most this often, as
 * interfaces come and go (DHCP, VPNs, containers); reading costs ~50 us.
 */
const HOST_ADDRESSES_MAX_AGE_MS = 5_000;
let hostAddresses: { list: net.BlockList; readAt: number } | undefined;

function isHostAddress(address: string, family: "ipv4" | "ipv6"): boolean {
  const now = Date.now();
  // Either way: a clock set back must not keep an old list for ever.
  if (!hostAddresses || Math.abs(now - hostAddresses.readAt) >= HOST_ADDRESSES_MAX_AGE_MS) {
    const list = new net.BlockList();
    for (const nic of Object.values(os.networkInterfaces()).flat()) {
      if (nic) list.addAddress(nic.address.replace(/%.*$/, ""), nic.family === "IPv4" ? "ipv4" : "ipv6");
    }
    hostAddresses = { list, readAt: now };
  }
  return hostAddresses.list.check(address, family);
}

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

const PRIVATE = "a private address";
const THIS_MACHINE = "an address of this machine";

/**
 * Why an outbound connection to `address` is refused, as a phrase (undefined:
 * it is a public address of another machine): a special-purpose or reserved
 * address, in any IPv6 form that embeds one, or one of this host's own.
 */
export function addressRefusal(address: string): string | undefined {
  if (net.isIPv4(address)) {
    if (specialPurposeV4.check(address, "ipv4")) return PRIVATE;
    return isHostAddress(address, "ipv4") ? THIS_MACHINE : undefined;
  }
  const g = ipv6Groups(address);
  if (!g) return PRIVATE; // not an address at all: refuse rather than guess
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and well-known NAT64 (64:ff9b::a.b.c.d): the connection ends at that IPv4 address.
  if ((zeros(0, 5) && g[5] === 0xffff) || (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6))) {
    return addressRefusal(ipv4Of(g[6], g[7]));
  }
  const canonical = g.map((x) => x.toString(16)).join(":");
  if (specialPurposeV6.check(canonical, "ipv6")) return PRIVATE;
  return isHostAddress(canonical, "ipv6") ? THIS_MACHINE : undefined;
}

export const isPrivateAddress = (address: string): boolean => addressRefusal(address) !== undefined;

const allowPrivate = () => config().ALLOW_PRIVATE_URLS;

/** The error a connection to `address` (for `host`) is refused with, unless the operator allows private addresses. */
export function connectRefusal(address: string, host = address): PrivateAddressError | undefined {
  return !allowPrivate() && isPrivateAddress(address) ? new PrivateAddressError(address, host) : undefined;
}

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
  if (net.isIP(host)) {
    const refusal = addressRefusal(host);
    return refusal && `${host} is ${refusal}`;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return undefined; // unresolvable now: decided at connection time
  }
  if (!addresses.length || !addresses.every((a) => isPrivateAddress(a.address))) return undefined;
  // What getaddrinfo reads as an address (inet_aton: 2130706433, 0x7f.1, 0177.0.0.1, 127.1) is not a name.
  const spelling = /^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+)){0,3}$/i.test(host) ? "is" : "resolves to";
  return `${host} ${spelling} ${addressRefusal(addresses[0].address)} (${addresses[0].address})`;
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
    const refused = net.isIP(literal) ? connectRefusal(literal) : undefined;
    if (refused) return reject(refused);
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
        const refused = connectRefusal(socket.remoteAddress ?? "");
        if (refused) req.destroy(refused);
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
