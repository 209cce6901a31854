import http from "node:http";
import type { AddressInfo } from "node:net";
import { beaconsWritten, collectBeacon, isBeaconPath } from "@/lib/analytics/collect";
import { startRollups } from "@/lib/analytics/rollup";
import { DATABASE_UNAVAILABLE, RETRY_AFTER_S, watchDatabase } from "@/db/availability";
import { config } from "@/lib/config";
import { deliver, followViewerChanges, isViewerPath, registerDeliveryMetrics, startViewerReports } from "@/lib/delivery";
import { startStun } from "@/lib/delivery/stun";
import { isWebrtcPath, webrtcSignal } from "@/lib/delivery/webrtc";
import { appMetrics, observeRequest } from "@/lib/metrics";
import { metricsAnswer } from "@/lib/metrics/expose";
import { clientAddress, CLIENT_ADDRESS_HEADER } from "@/lib/rate-limits/address";
import { limits } from "@/lib/rate-limits/limits";
import { isPlaybackPath, startAddressLimit } from "@/lib/rate-limits/playback";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface Front {
  server: http.Server;
  port: number;
  /** Stops listening for changes and flushing counts (the server itself is closed by its owner). */
  stop(): Promise<void>;
}

/**
 * The HTTP server of every process that answers clients (`npm start`, `npm run edge`): it counts
 * and times every request for /metrics, resolves the client's address, refuses methods served
 * nowhere and paths that do not decode, applies the playback rate limit, says 503 at once while
 * the database is out of reach, answers viewers itself (lib/delivery, which counts live viewers
 * and reports them), WebRTC signalling (/webrtc) and STUN, viewer beacons (lib/analytics), and Prometheus (/metrics), and hands
 * the rest to `rest` (Next.js in the app).
 */
export async function startFront(port: number, host: string, rest: Handler): Promise<Front> {
  const cfg = config();
  const database = watchDatabase();
  const stopFollowingViewerChanges = await followViewerChanges();
  registerDeliveryMetrics(appMetrics().registry);
  const stopViewerReports = startViewerReports();
  const playbackLimit = startAddressLimit(limits().playback, isPlaybackPath);
  const beaconLimit = startAddressLimit(limits().beacons, isBeaconPath);
  const stopRollups = startRollups();
  const server = http.createServer((req, res) => {
    observeRequest(req, res);
    // Only here is the connection's peer known. Next.js keeps an X-Forwarded-For it is given,
    // so what a client sent there is replaced, always, by what this server knows or trusts.
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req.socket.remoteAddress, req.headers[CLIENT_ADDRESS_HEADER], cfg.TRUST_PROXY);
    if (sendsBody(req)) closeOnUnreadBody(req, res);
    // Other methods (TRACE, which Next.js answers with a 500, WebDAV's, ...) are served nowhere here.
    if (!SERVED_METHODS.has(req.method ?? ""))
      return void answer(res, 501, `this HTTP method is not supported: Castline serves ${[...SERVED_METHODS].join(", ")}`);
    // Next.js answers a path it cannot percent-decode with a bare 500; say what is wrong instead.
    if (!decodablePath(req.url ?? "/")) return void answer(res, 400, "the URL path is not valid percent-encoded UTF-8");
    if (!playbackLimit.admit(req, res) || !beaconLimit.admit(req, res)) return;
    // While the database is out of reach every answer that needs it would be a 500 or a wait:
    // say so at once (the built pages' static files need nothing).
    if (database.down && !req.url?.startsWith("/_next/static/")) return void answer(res, 503, DATABASE_UNAVAILABLE, { "retry-after": String(RETRY_AFTER_S) });
    // What players fetch, before anything else: the most frequent requests there are.
    if (isViewerPath(req.url ?? "/")) return deliver(req, res);
    if (isWebrtcPath(req.url ?? "/")) return webrtcSignal(req, res);
    if (isBeaconPath(req.url ?? "/")) return collectBeacon(req, res);
    if (req.method === "GET" && (req.url === "/metrics" || req.url?.startsWith("/metrics?"))) return void metrics(req.headers.authorization, res);
    rest(req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  // Where WebRTC clients look for STUN: the host of the /webrtc URLs, this one.
  const stun = cfg.STUN_PORT ? await startStun(cfg.STUN_PORT, host) : undefined;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async stop() {
      stun?.close();
      database.stop();
      await stopViewerReports();
      await playbackLimit.stop();
      await beaconLimit.stop();
      await beaconsWritten();
      await stopRollups();
      await stopFollowingViewerChanges();
    },
  };
}

/** Prometheus scrapes this process here (Authorization: Bearer <METRICS_TOKEN>): off without METRICS_TOKEN, and only with it. */
async function metrics(authorization: string | undefined, res: http.ServerResponse) {
  const token = config().METRICS_TOKEN;
  if (!token) return answer(res, 404, "metrics are off: METRICS_TOKEN is not set");
  const { status, headers, body } = await metricsAnswer(appMetrics().registry, authorization, token);
  res.writeHead(status, headers).end(body);
}

/** How long, and how much more, a client still sending a refused body is read (and dropped) for. */
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * An answer given before the request's body was all received (a 413, a refused upload): what the
 * client is still sending is read and dropped for a moment (as nginx's lingering close does), so
 * that it reads the answer instead of a reset of a connection closed under its feet. A body that
 * ends within LINGER_MS and LINGER_BYTES leaves the connection as keep-alive as any other (its
 * client may send its next request on it); past either, the connection is cut.
 */
function closeOnUnreadBody(req: http.IncomingMessage, res: http.ServerResponse) {
  const socket = req.socket;
  res.once("finish", () => {
    if (req.complete) return;
    const cut = () => {
      clearTimeout(timer);
      socket.destroySoon();
    };
    const timer = setTimeout(cut, LINGER_MS);
    let dropped = 0;
    req.on("data", (chunk: Buffer) => (dropped += chunk.length) > LINGER_BYTES && cut());
    req.once("end", () => clearTimeout(timer));
    req.resume();
  });
}

/** Whether a body follows the request's headers (a GET's "end" may simply not have been read yet). */
function sendsBody(req: http.IncomingMessage) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function decodablePath(url: string): boolean {
  if (!url.includes("%")) return true;
  try {
    decodeURIComponent(url.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

export function answer(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ errors: [message] }));
}
