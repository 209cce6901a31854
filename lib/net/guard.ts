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
  constructor(readonly address: string) {
    super(`refusing to connect to private address ${address}`);
    this.name = "PrivateAddressError";
  }
}

const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3],
];
const BLOCKED_V6: [string, number][] = [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]];
const blockList = new net.BlockList();
for (const [a, p] of BLOCKED_V4) blockList.addSubnet(a, p, "ipv4");
for (const [a, p] of BLOCKED_V6) blockList.addSubnet(a, p, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blockList.check(mapped, "ipv4");
  const family = net.isIP(address);
  if (!family) return true; // not an address at all: refuse rather than guess
  return blockList.check(address, family === 4 ? "ipv4" : "ipv6");
}

const allowPrivate = () => config().ALLOW_PRIVATE_URLS;

/** A DNS lookup that drops private answers (the connect-time check still has the last word). */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const usable = allowPrivate() ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
    if (!usable.length) return callback(new PrivateAddressError(addresses[0]?.address ?? hostname), "", 0);
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
    callback(null, usable[0].address, usable[0].family);
  });
};

/**
 * Whether a URL's host is plainly private (a literal address or a name that
 * resolves only to private addresses). For a clear 400 at creation time; a name
 * that does not resolve now is accepted and checked again at delivery.
 */
export async function privateHostReason(url: string): Promise<string | undefined> {
  if (allowPrivate()) return undefined;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is this machine`;
  if (net.isIP(host)) return isPrivateAddress(host) ? `${host} is a private address` : undefined;
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    if (addresses.length && addresses.every((a) => isPrivateAddress(a.address))) {
      return `${host} resolves to a private address (${addresses[0].address})`;
    }
  } catch {
    /* unresolvable now: decided at connection time */
  }
  return undefined;
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
      // A kept-alive socket was checked when it connected; check again anyway, it is cheap.
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
