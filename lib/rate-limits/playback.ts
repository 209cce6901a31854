import type http from "node:http";
import { addressSubject, CLIENT_ADDRESS_HEADER } from "./address";
import { refusalMessage } from "./limits";
import { countHits, quotaHeaders, quotaOf, windowStartOf, type Limit, type Quota } from "./store";

/** What players fetch: media playlists and segments, asset files, recordings, playback info; WebRTC signalling. */
const PLAYBACK_PATH = /^\/(hls|asset|recordings|api\/playback|webrtc)(\/|$)/;

export const isPlaybackPath = (path: string) => PLAYBACK_PATH.test(path);

/** How often an instance adds its local counts to the shared ones. */
const FLUSH_MS = 2000;
/** Rows per upsert (three parameters each, PostgreSQL takes 65535). */
const BATCH = 5000;

interface Counter {
  windowStart: number;
  /** Everyone's hits as PostgreSQL counted them at this instance's last flush. */
  shared: number;
  /** This instance's hits being added now. */
  flushing: number;
  /** This instance's hits since. */
  pending: number;
}

/**
 * Per-address counts of one limit shared by every instance, without a PostgreSQL round trip
 * per request: a player fetches a segment every few seconds per viewer, the hottest path there
 * is. Each hit is counted in memory and judged by the shared count as of the last flush plus
 * this instance's hits since; every FLUSH_MS the instance adds its hits to the shared counters
 * (one upsert for all addresses) and learns their totals. Several instances may together let
 * through what arrives in one flush interval beyond the limit, no more.
 */
export class SharedCounters {
  private readonly counters = new Map<string, Counter>();

  constructor(readonly limit: Limit) {}

  hit(subject: string, now = Date.now()): Quota {
    const windowStart = windowStartOf(now);
    let counter = this.counters.get(subject);
    if (!counter || counter.windowStart !== windowStart) {
      counter = { windowStart, shared: 0, flushing: 0, pending: 0 };
      this.counters.set(subject, counter);
    }
    counter.pending++;
    return quotaOf(this.limit, counter.shared + counter.flushing + counter.pending, windowStart, now);
  }

  async flush(now = Date.now()) {
    const current = windowStartOf(now);
    const batch: [string, Counter][] = [];
    for (const [subject, counter] of this.counters) {
      // A past window's counts decide nothing any more.
      if (counter.windowStart !== current) this.counters.delete(subject);
      else if (counter.pending) {
        counter.flushing = counter.pending;
        counter.pending = 0;
        batch.push([subject, counter]);
      }
    }
    for (let i = 0; i < batch.length; i += BATCH) {
      const part = batch.slice(i, i + BATCH);
      try {
        const totals = await countHits(
          part.map(([subject, c]) => ({ limit: this.limit, subject, hits: c.flushing })),
          now,
        );
        part.forEach(([, c], j) => {
          c.shared = totals[j].total;
          c.flushing = 0;
        });
      } catch (err) {
        // The database is away: go on counting here, and add these hits next time.
        for (const [, c] of part) {
          c.pending += c.flushing;
          c.flushing = 0;
        }
        console.error("flushing playback rate-limit counts failed:", (err as Error).message);
      }
    }
  }

  /** Subjects counted in memory (for tests and metrics of the limiter itself). */
  get size() {
    return this.counters.size;
  }
}

/**
 * A per-address limit of the launcher's front on the paths `applies` names: the playback limit
 * (RATE_LIMIT_PLAYBACK_PER_MIN) on what players fetch, the beacon limit (RATE_LIMIT_BEACONS_PER_MIN)
 * on viewer beacons; 0: off. `admit` runs before Next.js sees the request: on such a path it
 * counts the hit, sets the RateLimit headers, and answers 429 itself when the address is over.
 */
export function startAddressLimit(limit: Limit, applies: (path: string) => boolean) {
  const counters = new SharedCounters(limit);
  const timer = setInterval(() => void counters.flush(), FLUSH_MS).unref();
  return {
    admit(req: http.IncomingMessage, res: http.ServerResponse): boolean {
      if (!limit.perMinute || !applies(req.url ?? "/")) return true;
      const quota = counters.hit(addressSubject(String(req.headers[CLIENT_ADDRESS_HEADER])));
      const headers = quotaHeaders(quota);
      if (!quota.exceeded) {
        for (const name in headers) res.setHeader(name, headers[name]);
        return true;
      }
      // Players on other sites must be able to read the refusal.
      res
        .writeHead(429, { ...headers, "content-type": "application/json", "access-control-allow-origin": "*" })
        .end(JSON.stringify({ errors: [refusalMessage(limit.name, quota.limit, quota.resetS)] }));
      return false;
    },
    async stop() {
      clearInterval(timer);
      await counters.flush();
    },
  };
}
