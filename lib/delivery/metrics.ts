import { Counter, Gauge, type Registry } from "prom-client";
import { cacheFigures } from "./content";
import { sharedFigures } from "./shared";
import { heldFigures } from "./stored";

/** Bytes of bodies the delivery plane answered, by kind: what a CDN in front would take off the origin. */
let bytesServed: Counter<"kind"> | undefined;

/**
 * The delivery plane's own figures on /metrics, beside the per-route request counts and
 * latencies every request has (castline_http_requests_total, ..._duration_seconds): how often
 * its caches answered without PostgreSQL or the store, and the bytes it served.
 */
export function registerDeliveryMetrics(registry: Registry) {
  new Gauge({
    name: "castline_delivery_cache_lookups",
    help: "Lookups of the delivery plane's caches since the process started, by cache (content: playback ids, sessions, renditions; live-playlists; live-segments, held in memory; shared-answers, given again without their handler: hits only) and result (hit, miss)",
    labelNames: ["cache", "result"] as const,
    registers: [registry],
    collect() {
      const { content, livePlaylists } = cacheFigures();
      this.set({ cache: "content", result: "hit" }, content.hits);
      this.set({ cache: "content", result: "miss" }, content.misses);
      this.set({ cache: "live-playlists", result: "hit" }, livePlaylists.hits);
      this.set({ cache: "live-playlists", result: "miss" }, livePlaylists.misses);
      const segments = heldFigures();
      this.set({ cache: "live-segments", result: "hit" }, segments.hits);
      this.set({ cache: "live-segments", result: "miss" }, segments.misses);
      this.set({ cache: "shared-answers", result: "hit" }, sharedFigures().hits);
    },
  });
  new Gauge({
    name: "castline_delivery_cache_entries",
    help: "Entries held by the delivery plane's content cache",
    registers: [registry],
    collect() {
      this.set(cacheFigures().content.size);
    },
  });
  new Gauge({
    name: "castline_delivery_held_bytes",
    help: "Bytes of live segments the delivery plane holds in memory (LIVE_SEGMENT_MEMORY_MB at most)",
    registers: [registry],
    collect() {
      this.set(heldFigures().bytes);
    },
  });
  bytesServed = new Counter({
    name: "castline_delivery_bytes_total",
    help: "Body bytes the delivery plane sent, by kind (playlist, segment, file)",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
}

/** Counts an answer's body once it was sent whole. */
export function countServed(path: string, bytes: number) {
  if (!bytesServed || !bytes) return;
  bytesServed.inc({ kind: path.endsWith(".m3u8") ? "playlist" : path.endsWith(".ts") || path.endsWith(".m4s") ? "segment" : "file" }, bytes);
}
