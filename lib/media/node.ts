import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import NodeMediaServer, { type NmsSession } from "node-media-server";
import Context from "node-media-server/src/core/context.js";
import logger from "node-media-server/src/core/logger.js";
import { newId } from "@/lib/ids";
import { AppClient } from "./app-client";
import { Broadcast, type Publisher } from "./broadcast";
import { Feed, FeedDir } from "./feed";
import { VideoMeter } from "./video-meter";

/**
 * A media node: the RTMP server (node-media-server) that broadcasters publish
 * to at rtmp://<host>:<RTMP_PORT>/live/<stream key>, and the Broadcast of each
 * authorised publish. It knows the app only through its internal API.
 */
export interface MediaNodeOptions {
  appUrl: string;
  secret: string;
  rtmpHost: string;
  rtmpPort: number;
  dataDir: string;
  segmentS: number;
}

const AVC = 7;
const AAC = 10;
/** How long to wait for the publisher's codec headers before starting the transcoder. */
const HEADERS_WAIT_MS = 2000;

export async function startMediaNode(opts: MediaNodeOptions) {
  const nodeId = `${os.hostname()}/${process.pid}/${newId().slice(0, 8)}`;
  const app = new AppClient(opts.appUrl, opts.secret);
  const mediaDir = path.join(opts.dataDir, "media");
  await fs.mkdir(mediaDir, { recursive: true });
  // Earlier versions let NMS keep its publish history here; it lists stream keys.
  await fs.rm(path.join(mediaDir, "nms"), { recursive: true, force: true });
  const feeds = await FeedDir.create();
  const broadcasts = new Map<string, Broadcast>();

  // No `store`: NMS would keep a JSON history of publishes, stream keys included, that nothing here reads.
  const nms = new NodeMediaServer({
    bind: opts.rtmpHost,
    rtmp: { port: opts.rtmpPort, chunk_size: 60000, gop_cache: true, ping: 30, ping_timeout: 60 },
  });
  logger.level = "error";

  nms.on("postPublish", (session) => {
    // postPublish also fires for a second publisher that NMS then rejects: only the real one counts.
    setImmediate(() => {
      const broadcast = Context.broadcasts.get(session.streamPath);
      if (!broadcast || broadcast.publisher !== session) return;
      // We detect the end ourselves; NMS's 30 s resume window would delay it.
      broadcast.publishGraceMs = 0;
      // Held from the first packet, while the app checks the key.
      void admit(session, new Feed(broadcast, feeds));
    });
  });

  async function admit(session: NmsSession, feed: Feed) {
    const cut = () => {
      feed.close();
      session.socket.destroy();
    };
    const [app_, key] = session.streamPath.split("/").filter(Boolean);
    if (app_ !== "live" || !key) return cut();
    let grant;
    try {
      grant = await app.publish(key, nodeId);
    } catch (err) {
      console.error("[media] publish check failed:", (err as Error).message);
      return cut();
    }
    if ("refused" in grant) return cut();
    if (session.socket.destroyed) {
      feed.close();
      await app.event({ kind: "ended", sessionId: grant.sessionId }).catch(() => undefined);
      return;
    }

    const nmsBroadcast = Context.broadcasts.get(session.streamPath)!;
    const video = new VideoMeter();
    const forward = nmsBroadcast.broadcastMessage;
    nmsBroadcast.broadcastMessage = (packet) => {
      if (packet.codec_type === 9 && (packet.flags === 1 || packet.flags === 3 || packet.flags === 4)) video.frame(packet.dts, packet.flags === 3);
      forward(packet);
    };
    const deadline = Date.now() + HEADERS_WAIT_MS;
    while (!nmsBroadcast.flvVideoHeader && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const publisher: Publisher = {
      inBytes: () => session.inBytes,
      info: () => ({
        sourceIsH264: session.videoCodec === AVC || session.videoCodec === 0,
        audio: !nmsBroadcast.flvAudioHeader ? "none" : session.audioCodec === AAC || session.audioCodec === 0 ? "aac" : "other",
        fps: session.videoFramerate || undefined,
        kbps: session.videoDatarate || undefined,
      }),
      videoStats: () => ({ fps: video.fps, keyframeIntervalS: video.keyframeIntervalS }),
      cut,
    };
    const live = new Broadcast(grant, publisher, { app, feed, mediaDir, segmentS: opts.segmentS });
    broadcasts.set(session.id, live);
    session.socket.once("close", () => {
      broadcasts.delete(session.id);
      void live.end();
    });
    if (session.socket.destroyed) return void live.end();
    await live.start();
  }

  nms.rtmpServer.run();
  // ready (and said so) only once encoders can connect
  await once(nms.rtmpServer.tcpServer, "listening");
  console.log(`media node ${nodeId}: RTMP on ${opts.rtmpHost}:${opts.rtmpPort}`);
  return {
    nodeId,
    async stop() {
      await Promise.all([...broadcasts.values()].map((b) => b.end()));
      await nms.stop();
      await feeds.remove();
    },
  };
}
