import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { metricsAnswer } from "./expose";

/**
 * A media node's Prometheus metrics: its process's own and its broadcasts'. A node serves
 * them on a port of its own (startMetricsServer), since it has no web server and may sit on
 * another machine than any app instance.
 */
const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const ffmpegRestarts = new Counter({
  name: "castline_ffmpeg_restarts_total",
  help: "ffmpeg processes started again after they exited unasked, by role (transcoder, recorder, push)",
  labelNames: ["role"] as const,
  registers: [registry],
});

export const renditionsDropped = new Counter({
  name: "castline_live_renditions_dropped_total",
  help: "Live renditions dropped because the node could not transcode them in real time",
  registers: [registry],
});

export const segmentWriteSeconds = new Histogram({
  name: "castline_segment_write_seconds",
  help: "Time to store one media segment, by kind (live, recording)",
  labelNames: ["kind"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const liveRenditions = new Gauge({
  name: "castline_live_renditions",
  help: "Renditions this node produces now, over all its live sessions",
  registers: [registry],
});

export const nodeSessions = new Gauge({
  name: "castline_node_sessions",
  help: "Live sessions this node runs now",
  registers: [registry],
});

/** What a node's WebRTC does (media-node/whip.ts): sessions now, and counts since it started. */
export interface WebrtcStats {
  publishers: number;
  viewers: number;
  /** Renditions for WHEP viewers of publishes not made over WebRTC, running now: their video copied (H.264 without B-frames) or made. */
  renditions: { copied: number; made: number };
  receivedBytes: number;
  sentBytes: number;
  /** Viewers' keyframe requests (PLI, FIR). */
  keyframeRequests: number;
  /** Packets viewers asked again (NACK). */
  nacked: number;
  /** Packets of publishers that never arrived (gaps in their sequence numbers). */
  lostByPublishers: number;
  /** Packets sent to viewers that they report lost (their RTCP reports). */
  lostBySent: number;
}

/** Read at scrape time from the node's WebRTC. */
let webrtcStats: () => WebrtcStats | undefined = () => undefined;
export const readWebrtcFrom = (read: typeof webrtcStats) => void (webrtcStats = read);

const webrtcGauge = (name: string, help: string, read: (s: WebrtcStats) => number) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const stats = webrtcStats();
      if (stats) this.set(read(stats));
    },
  });
webrtcGauge("castline_webrtc_publishers", "WebRTC (WHIP) publishes on this node now", (s) => s.publishers);
webrtcGauge("castline_webrtc_viewers", "WebRTC (WHEP) viewers on this node now", (s) => s.viewers);
new Gauge({
  name: "castline_webrtc_renditions",
  help: "Renditions for WebRTC viewers of RTMP publishes, running now, by video: copied (H.264 without B-frames) or made",
  labelNames: ["video"] as const,
  registers: [registry],
  collect() {
    const stats = webrtcStats();
    if (!stats) return;
    this.set({ video: "copied" }, stats.renditions.copied);
    this.set({ video: "made" }, stats.renditions.made);
  },
});
/** A count the node keeps since it started, brought up to date at scrape time. */
const webrtcCounter = (name: string, help: string, read: (s: WebrtcStats) => number) => {
  let counted = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const stats = webrtcStats();
      if (!stats || read(stats) <= counted) return;
      this.inc(read(stats) - counted);
      counted = read(stats);
    },
  });
};
webrtcCounter("castline_webrtc_received_bytes_total", "Bytes received from WebRTC publishers (RTP and RTCP)", (s) => s.receivedBytes);
webrtcCounter("castline_webrtc_sent_bytes_total", "Media bytes sent to WebRTC viewers", (s) => s.sentBytes);
webrtcCounter("castline_webrtc_keyframe_requests_total", "Keyframe requests (PLI, FIR) from WebRTC viewers", (s) => s.keyframeRequests);
webrtcCounter("castline_webrtc_nacked_packets_total", "Packets WebRTC viewers asked again (NACK), sent again from the node's history", (s) => s.nacked);
/** Lost packets, by direction: from publishers (gaps in what arrived), to viewers (what their reports say they lost). */
const lostCounted = { received: 0, sent: 0 };
new Counter({
  name: "castline_webrtc_lost_packets_total",
  help: "RTP packets lost: received (from WebRTC publishers, gaps in their sequence) and sent (to WebRTC viewers, as they report)",
  labelNames: ["direction"] as const,
  registers: [registry],
  collect() {
    const stats = webrtcStats();
    if (!stats) return;
    for (const [direction, now] of [
      ["received", stats.lostByPublishers],
      ["sent", stats.lostBySent],
    ] as const) {
      // Both series shown from the start (a 0 is a count too).
      this.inc({ direction }, Math.max(0, now - lostCounted[direction]));
      lostCounted[direction] = Math.max(lostCounted[direction], now);
    }
  },
});

/** Read at scrape time, as media_nodes.cpu_load is defined: nobody needs to set it. */
export const nodeCpuLoad = new Gauge({
  name: "castline_node_cpu_load",
  help: "Load average over one minute divided by the cores: 1 is a full node",
  registers: [registry],
  collect() {
    this.set(os.loadavg()[0] / os.availableParallelism());
  },
});

/**
 * Serves GET /metrics on `port` (0: any free one). With a token, scrapes need
 * `Authorization: Bearer <token>`; without one they are open, as this port is the node's
 * alone and meant to be reachable only by the operator's Prometheus (firewall it).
 */
export async function startMetricsServer(port: number, token?: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    if ((req.url ?? "/").split("?")[0] !== "/metrics")
      return void send(res, 404, { "content-type": "application/json" }, JSON.stringify({ errors: ["not found"] }));
    if (req.method !== "GET") return void send(res, 405, { allow: "GET", "content-type": "application/json" }, JSON.stringify({ errors: ["only GET"] }));
    const answer = await metricsAnswer(registry, req.headers.authorization, token);
    send(res, answer.status, answer.headers, answer.body);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string) {
  res.writeHead(status, headers).end(body);
}
