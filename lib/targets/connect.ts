import net from "node:net";
import { connectRefusal, resolveHost } from "@/lib/net/guard";

/**
 * How a media node's ffmpeg reaches a multistream target without resolving the
 * target's host itself: ffmpeg does its own DNS, so a name checked once could
 * point somewhere private by the time it connects. The node resolves the host
 * (getaddrinfo, as ffmpeg would), checks the answers with the shared guard and
 * makes ffmpeg connect to the checked address only:
 * - rtmp, srt: the address replaces the host in the URL; for rtmp the tcUrl
 *   ffmpeg would have sent (with the host's name) is given explicitly;
 * - rtmps: TLS needs the name (SNI), so the URL is kept and ffmpeg's tls layer
 *   goes through a one-target CONNECT tunnel (`-http_proxy`) that opens the
 *   checked address only, checking it once more as ffmpeg connects.
 * Each attempt of a push makes a new route, so each is checked again.
 */
export interface TargetRoute {
  /** The URL to give ffmpeg. */
  url: string;
  /** ffmpeg output options that come with it. */
  options: string[];
  /** ffmpeg's environment: no `no_proxy` that could make it bypass the tunnel. */
  env: NodeJS.ProcessEnv;
  /** Why the tunnel could not reach the target, when it could not (clearer than ffmpeg's I/O error). */
  failure(): string | undefined;
  close(): Promise<void>;
}

/** A target URL split as ffmpeg's av_url_split does (so the host is the one ffmpeg would resolve). */
export interface TargetUrlParts {
  protocol: string;
  /** Without brackets. */
  host: string;
  /** -1 when the URL has none. */
  port: number;
  /** From the first `/`, `?` or `#` after the host on. */
  path: string;
  /** Where the host is written in the URL, brackets included. */
  hostStart: number;
  hostEnd: number;
}

const atoi = (text: string) => parseInt(text, 10) || 0;

export function splitTargetUrl(url: string): TargetUrlParts {
  const colon = url.indexOf(":");
  if (colon < 0) return { protocol: "", host: "", port: -1, path: url, hostStart: 0, hostEnd: 0 };
  let p = colon + 1;
  if (url[p] === "/") p++;
  if (url[p] === "/") p++;
  let ls = p;
  while (ls < url.length && !"/?#".includes(url[ls])) ls++;
  const at = url.lastIndexOf("@", ls - 1);
  if (at >= p) p = at + 1; // user:password@ goes up to the last @
  const authority = url.slice(p, ls);
  const bracket = authority.indexOf("]");
  const parts = { protocol: url.slice(0, colon), path: url.slice(ls), hostStart: p };
  if (authority.startsWith("[") && bracket > 0) {
    const port = authority[bracket + 1] === ":" ? atoi(authority.slice(bracket + 2)) : -1;
    return { ...parts, host: authority.slice(1, bracket), port, hostEnd: p + bracket + 1 };
  }
  const col = authority.indexOf(":");
  const host = col < 0 ? authority : authority.slice(0, col);
  return { ...parts, host, port: col < 0 ? -1 : atoi(authority.slice(col + 1)), hostEnd: p + host.length };
}

/** What may be shown of a target's URL: its host, and port when written (never the path, query or userinfo that hold secrets). */
export function targetHost(url: string): string {
  const { host, port } = splitTargetUrl(url);
  return port < 0 ? bracketed(host) : `${bracketed(host)}:${port}`;
}

/** The RTMP application ffmpeg 5.1 derives from a URL's path (rtmpproto.c), which its tcUrl ends with. */
export function rtmpApp(path: string): string {
  const query = path.indexOf("?");
  if (query >= 0 && path.includes("slist=", query)) return path.slice(1);
  if (path.startsWith("/ondemand/")) return "ondemand";
  const next = path.slice(1);
  const slash = next.indexOf("/");
  if (slash < 0) return next;
  const rest = next.slice(slash + 1);
  const instance = rest.indexOf("/");
  const colon = rest.indexOf(":");
  if (instance < 0 || (colon >= 0 && colon < instance)) return next.slice(0, slash);
  return next.slice(0, slash + 1 + instance);
}

const DEFAULT_PORTS: Record<string, number> = { rtmp: 1935, rtmps: 443 };
const bracketed = (host: string) => (host.includes(":") ? `[${host}]` : host);

/** The tcUrl ffmpeg sends for an RTMP URL: proto://host:port/app, the port always written. */
export function rtmpTcUrl(url: string): string {
  const { protocol, host, port, path } = splitTargetUrl(url);
  return `${protocol}://${bracketed(host)}:${port < 0 ? DEFAULT_PORTS[protocol] : port}/${rtmpApp(path)}`;
}

/** The environment handed on to ffmpeg as it is (settings are read in lib/config.ts), less no_proxy. */
function ffmpegEnv(): NodeJS.ProcessEnv {
  const { no_proxy: _lower, NO_PROXY: _upper, ...env } = process.env;
  return env;
}

/**
 * Resolves and checks a target's host; throws PrivateAddressError (the host is
 * private, whatever its spelling), the resolver's error, or for an unknown protocol.
 */
export async function routeToTarget(url: string): Promise<TargetRoute> {
  const parts = splitTargetUrl(url);
  if (!["rtmp", "rtmps", "srt"].includes(parts.protocol)) throw new Error(`unsupported protocol ${parts.protocol}://`);
  if (!parts.host) throw new Error("the target URL has no host");
  const { address } = await resolveHost(parts.host);
  if (parts.protocol === "rtmps") return tunnel(url, parts, address);
  return {
    url: url.slice(0, parts.hostStart) + bracketed(address) + url.slice(parts.hostEnd),
    options: parts.protocol === "rtmp" ? ["-rtmp_tcurl", rtmpTcUrl(url)] : [],
    env: ffmpegEnv(),
    failure: () => undefined,
    close: async () => {},
  };
}

/** A CONNECT proxy on 127.0.0.1 that only ever opens `address`, for this target's host and port. */
async function tunnel(url: string, parts: TargetUrlParts, address: string): Promise<TargetRoute> {
  const port = parts.port < 0 ? DEFAULT_PORTS.rtmps : parts.port;
  const expected = `CONNECT ${bracketed(parts.host)}:${port} `;
  const sockets = new Set<net.Socket>();
  let failure: string | undefined;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket)).on("error", () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    let head = "";
    const onHead = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return void (head.length > 8192 && client.destroy());
      client.off("data", onHead).pause();
      if (!head.startsWith(expected)) return void client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      // Checked again as ffmpeg connects: this host's addresses may have changed since the route was made.
      const refused = connectRefusal(address, parts.host);
      if (refused) {
        failure = refused.message;
        return void client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      }
      const upstream = net.connect({ host: address, port });
      track(upstream);
      upstream.once("error", (err) => {
        failure = `${parts.host} (${address}:${port}): ${err.message}`;
        client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      });
      upstream.once("connect", () => {
        client.write("HTTP/1.1 200 Connection established\r\n\r\n");
        client.pipe(upstream).pipe(client);
      });
    };
    client.on("data", onHead);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const proxy = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url,
    options: ["-http_proxy", proxy],
    env: ffmpegEnv(),
    failure: () => failure,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * ffmpeg's words about a push, safe to report (events, webhooks, logs): a target URL is
 * write-only, so every URL in them is cut to its scheme and host, and the pieces of the
 * target's path and query that carry its stream key (or userinfo) are masked wherever
 * ffmpeg printed them alone.
 */
export function redactTargetSecrets(message: string, url: string): string {
  const { path, hostStart } = splitTargetUrl(url);
  const secrets = [
    ...path.split(/[/?#&=]/),
    ...url
      .slice(0, hostStart)
      .replace(/^[a-z]+:\/\//i, "")
      .split(/[:@]/),
  ].filter((piece) => piece.length >= 6);
  let safe = message.replace(
    /\b(rtmps?|srt):\/\/([^\s/?#'"]+)[^\s'"]*/gi,
    (_, scheme: string, authority: string) => `${scheme}://${authority.replace(/^.*@/, "")}/…`,
  );
  for (const secret of secrets.sort((a, b) => b.length - a.length)) safe = safe.split(secret).join("…");
  return safe;
}
