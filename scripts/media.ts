import { exitWithLauncherWhileStarting, serveLauncher } from "./children";
import { config } from "@/lib/config";
import { usePrivateDataDir } from "@/lib/data-dir";
import { dropOutputWithoutReader } from "@/lib/process-output";
import { startMediaNode } from "@/media-node/node";
import { objects } from "@/lib/storage";
import { ffmpegRestarts, liveRenditions, nodeSessions, readWebrtcFrom, renditionsDropped, segmentWriteSeconds, startMetricsServer } from "@/lib/metrics/media";

/**
 * `npm run media`: a media node (RTMP ingest, transcoding, recording, multistream).
 * `npm start` runs one; more can run on other machines with APP_URL pointing at
 * the app, the app's MEDIA_SECRET, and the bucket's S3_* to store media there
 * directly (without them, media goes through the app). See docs/scaling.md.
 */
async function main() {
  exitWithLauncherWhileStarting();
  const cfg = config();
  dropOutputWithoutReader();
  usePrivateDataDir();
  if (!cfg.APP_URL) throw new Error("APP_URL must say where the app is, e.g. APP_URL=http://10.0.0.5:3000");
  if (!process.env.MEDIA_SECRET) throw new Error("MEDIA_SECRET must be the app's (DATA_DIR/media-secret on the app's machine)");
  const direct = (cfg.MEDIA_STORE ?? (cfg.S3_BUCKET ? "direct" : "app")) === "direct";
  const node = await startMediaNode({
    appUrl: cfg.APP_URL,
    secret: process.env.MEDIA_SECRET,
    rtmpHost: cfg.RTMP_HOST,
    rtmpPort: cfg.RTMP_PORT,
    dataDir: cfg.dataDir,
    segmentS: cfg.HLS_SEGMENT_S,
    store: direct ? objects() : undefined,
    publicHost: cfg.MEDIA_PUBLIC_HOST,
    webrtc: {
      signalPort: cfg.WEBRTC_SIGNAL_PORT,
      host: cfg.WEBRTC_HOST,
      publicHosts: cfg.WEBRTC_PUBLIC_HOSTS,
      udpPorts: cfg.WEBRTC_UDP_PORTS ? { begin: Number(cfg.WEBRTC_UDP_PORTS.split("-")[0]), end: Number(cfg.WEBRTC_UDP_PORTS.split("-")[1]) } : undefined,
    },
    observe: {
      ffmpegRestarted: (role) => ffmpegRestarts.inc({ role }),
      segmentStored: (kind, seconds) => segmentWriteSeconds.observe({ kind }, seconds),
      renditionsDropped: (count) => renditionsDropped.inc(count),
      liveChanged: (sessions, renditions) => {
        nodeSessions.set(sessions);
        liveRenditions.set(renditions);
      },
    },
  });
  readWebrtcFrom(node.webrtcStats);
  const metrics = cfg.METRICS_PORT ? await startMetricsServer(cfg.METRICS_PORT, cfg.METRICS_TOKEN) : undefined;
  if (metrics) console.log(`media node metrics on :${metrics.port}/metrics`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await node.stop();
    await metrics?.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  if (process.send) {
    serveLauncher({ nodeId: node.nodeId }, shutdown);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
