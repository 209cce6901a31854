import { createHash, randomBytes, randomUUID } from "node:crypto";
import { CLIENT_ADDRESS_HEADER } from "@/lib/rate-limits/address";
import { reportViewers, VIEWERS_FRESH_MS } from "@/lib/live/viewers";
import type { ViewerRequest } from "./reply";

/** How often an instance tells PostgreSQL what it sees. */
const REPORT_MS = 5000;
/** A viewer is watching while its player polled within this long (players poll every segment: 1-10 s). */
const WATCHING_MS = VIEWERS_FRESH_MS;

/**
 * The live viewers this instance serves, counted from the playlists they poll: a viewer is an
 * address and a user agent, hashed with a key this process draws at start (no address is kept,
 * and the hash means nothing to another process or after a restart). Viewers behind one address
 * with the same browser count once. Several instances each count their own and report them
 * (lib/live/viewers.ts); a viewer moved between instances by a balancer counts on each for a moment.
 */
const instance = randomUUID();
const salt = randomBytes(16);
const watching = new Map<string, Map<string, number>>();
/** Streams reported with viewers last time: they get a 0 when their viewers are gone. */
let reported = new Set<string>();

export function countViewer(streamId: string, req: ViewerRequest, now = Date.now()) {
  const who = viewerOf(req.headers.get(CLIENT_ADDRESS_HEADER) ?? "", req.headers.get("user-agent") ?? "", req.connection);
  let viewers = watching.get(streamId);
  if (!viewers) watching.set(streamId, (viewers = new Map()));
  viewers.set(who, now);
}

/**
 * Who a connection's requests come from, hashed once per connection (a player polls on one) and
 * again only when its address or browser changes (a proxy's connection carries many viewers).
 * Held while the connection lives.
 */
const byConnection = new WeakMap<object, { address: string; browser: string; who: string }>();

function viewerOf(address: string, browser: string, connection: object | undefined): string {
  const known = connection && byConnection.get(connection);
  if (known && known.address === address && known.browser === browser) return known.who;
  const who = createHash("sha256").update(salt).update(address).update("\n").update(browser).digest("base64url").slice(0, 16);
  if (connection) byConnection.set(connection, { address, browser, who });
  return who;
}

/** What this instance sees now, per stream; viewers gone quiet are forgotten. */
export function viewerCounts(now = Date.now()): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [streamId, viewers] of watching) {
    for (const [who, seen] of viewers) if (now - seen > WATCHING_MS) viewers.delete(who);
    if (viewers.size) counts.set(streamId, viewers.size);
    else watching.delete(streamId);
  }
  return counts;
}

/** Reports the counts every REPORT_MS (a failed report is tried again at the next). */
export function startViewerReports(): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const report = () => {
    const counts = viewerCounts();
    for (const streamId of reported) if (!counts.has(streamId)) counts.set(streamId, 0);
    running = reportViewers(instance, counts).then(
      () => void (reported = new Set([...counts].filter(([, n]) => n > 0).map(([id]) => id))),
      (err) => console.error("[delivery] reporting live viewers:", err instanceof Error ? err.message : err),
    );
  };
  const timer = setInterval(report, REPORT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
