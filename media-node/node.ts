import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import NodeMediaServer, { type NmsSession } from "node-media-server";
import Context from "node-media-server/src/core/context.js";
import logger from "node-media-server/src/core/logger.js";
import { newId } from "@/lib/ids";
import { NODE_HEARTBEAT_MS } from "@/lib/media-node-protocol";
import { machineId } from "@/lib/av/machine";
import { AppClient } from "./app-client";
import { Broadcast, type BroadcastObserver, type Publisher } from "./broadcast";
import type { MediaStore } from "./media-store";
import { Feed, FeedDir } from "./feed";
import { BitrateMeter } from "./bitrate-meter";
import { VideoMeter } from "./video-meter";
import { serveWhip, WEBRTC_PUBLISHER, WhipIngest } from "./whip";

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
  /** Scratch only: what ffmpeg writes before it is stored, under DATA_DIR/media. */
  dataDir: string;
  segmentS: number;
  /** Where live HLS and recordings go; the app's internal API when unset. */
  store?: MediaStore;
  /** The host[:port] encoders reach this node at (MEDIA_PUBLIC_HOST). */
  publicHost?: string;
  /** WebRTC publishes (WHIP): the signalling port app instances hand offers to (0: any), and ICE's UDP ports. */
  webrtc?: { signalPort: number; host?: string; publicHosts?: string[]; udpPorts?: { begin: number; end: number } };
  observe?: NodeObserver;
}

export interface NodeObserver extends BroadcastObserver {
  /** The node's live sessions and the renditions they produce, after each change. */
  liveChanged(sessions: number, renditions: number): void;
}

const AVC = 7;
const AAC = 10;
/** How long to wait for the publisher's codec headers before starting the transcoder. */
const HEADERS_WAIT_MS = 2000;

export async function startMediaNode(opts: MediaNodeOptions) {
  const nodeId = `${os.hostname()}/${process.pid}/${newId().slice(0, 8)}`;
  const app = new AppClient(opts.appUrl, opts.secret);
  const store = opts.store ?? app;
  const scratchDir = await scratchFolder(path.join(opts.dataDir, "media"));
  const feeds = await FeedDir.create();
  const broadcasts = new Map<string, Broadcast>();
  /** The same broadcasts by stream key, with their feeds: WHEP viewers watch them (whip.ts). */
  const feedsByKey = new Map<string, { feed: Feed; audio: boolean }>();

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

  const liveChanged = () =>
    opts.observe?.liveChanged(
      broadcasts.size,
      [...broadcasts.values()].reduce((n, b) => n + b.grant.profiles.length + 1, 0),
    );

  async function admit(session: NmsSession, feed: Feed) {
    const cut = () => {
      feed.close();
      session.socket.destroy();
    };
    const [app_, key] = session.streamPath.split("/").filter(Boolean);
    if (app_ !== "live" || !key) return cut();
    let grant;
    try {
      // A WebRTC publish's session (media-node/whip.ts) says so: its viewers may watch it over WHEP.
      grant = await app.publish(key, nodeId, session.ip === WEBRTC_PUBLISHER ? "webrtc" : "rtmp");
    } catch (err) {
      console.error("[media] publish check failed:", (err as Error).message);
      return cut();
    }
    if ("refused" in grant) {
      console.error(`[media] publish refused: ${grant.refused}`);
      return cut();
    }
    if (session.socket.destroyed) {
      feed.close();
      await app.event({ kind: "ended", sessionId: grant.sessionId, epoch: grant.epoch }).catch(() => undefined);
      return;
    }

    const nmsBroadcast = Context.broadcasts.get(session.streamPath)!;
    const video = new VideoMeter();
    const bitrate = new BitrateMeter();
    const forward = nmsBroadcast.broadcastMessage;
    nmsBroadcast.broadcastMessage = (packet) => {
      if (packet.codec_type === 9 && (packet.flags === 1 || packet.flags === 3 || packet.flags === 4)) video.frame(packet.dts, packet.flags === 3);
      if (packet.codec_type === 8 || packet.codec_type === 9) bitrate.packet(packet.dts, packet.size);
      forward(packet);
    };
    const deadline = Date.now() + HEADERS_WAIT_MS;
    while (!nmsBroadcast.flvVideoHeader && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const publisher: Publisher = {
      inBytes: () => session.inBytes,
      info: () => ({
        sourceIsH264: session.videoCodec === AVC || session.videoCodec === 0,
        audio: !nmsBroadcast.flvAudioHeader ? "none" : session.audioCodec === AAC || session.audioCodec === 0 ? "aac" : "other",
        kbps: session.videoDatarate || undefined,
      }),
      feedStats: () => ({ bitrateKbps: bitrate.kbps, fps: video.fps, keyframeIntervalS: video.keyframeIntervalS }),
      cut,
    };
    const live = new Broadcast(grant, publisher, { app, feed, scratchDir, store, segmentS: opts.segmentS, observe: opts.observe });
    broadcasts.set(session.id, live);
    const watched = { feed, audio: publisher.info().audio !== "none" };
    feedsByKey.set(key, watched);
    liveChanged();
    session.socket.once("close", () => {
      broadcasts.delete(session.id);
      if (feedsByKey.get(key) === watched) feedsByKey.delete(key);
      liveChanged();
      void live.end();
    });
    if (session.socket.destroyed) return void live.end();
    await live.start();
  }

  nms.rtmpServer.run();
  // ready (and said so) only once encoders can connect
  await once(nms.rtmpServer.tcpServer, "listening");
  console.log(`media node ${nodeId}: RTMP on ${opts.rtmpHost}:${opts.rtmpPort}`);

  // WebRTC publishes become broadcasts of the same RTMP server (whip.ts): everything above applies.
  const whip =
    opts.webrtc &&
    new WhipIngest({
      keyframeEveryS: opts.segmentS,
      portRange: opts.webrtc.udpPorts,
      bindAddress: opts.webrtc.host,
      publicAddresses: opts.webrtc.publicHosts,
      feedOf: (key) => feedsByKey.get(key),
    });
  const signal = whip && (await serveWhip(whip, { host: opts.rtmpHost, port: opts.webrtc!.signalPort, secret: opts.secret }));
  const signalHost = opts.publicHost?.split(":")[0] ?? (opts.rtmpHost === "0.0.0.0" ? "127.0.0.1" : opts.rtmpHost);
  const webrtcUrl = signal && `http://${signalHost.includes(":") ? `[${signalHost}]` : signalHost}:${signal.port}`;

  const startedAt = Date.now();
  const cores = os.availableParallelism();
  const ingestUrl = opts.publicHost && `rtmp://${opts.publicHost.includes(":") ? opts.publicHost : `${opts.publicHost}:${opts.rtmpPort}`}/live`;
  let heartbeat: NodeJS.Timeout | undefined;
  let registered = false;
  let leaving = false;
  /** Registers, then heartbeats; told it was declared lost meanwhile, it lets every broadcast go. */
  const state = () => ({
    nodeId,
    ...(ingestUrl ? { ingestUrl } : {}),
    rtmpPort: opts.rtmpPort,
    ...(webrtcUrl ? { webrtcUrl } : {}),
    cores,
    cpuLoad: os.loadavg()[0] / cores,
    liveSessions: broadcasts.size,
    laggingSessions: [...broadcasts.values()].filter((b) => b.lagging).length,
    machine: machineId(),
    startedAt,
  });
  const beat = async () => {
    if (leaving) return;
    try {
      const reply = await app.nodeBeat(state());
      registered = true;
      if (reply.lost) for (const b of broadcasts.values()) b.letGo(new Error(`node ${nodeId} was declared lost`));
    } catch (err) {
      if (registered) console.error(`[media] node heartbeat failed:`, (err as Error).message);
    }
    // Until the app first answers (it may still be starting), ask again soon.
    if (!leaving) heartbeat = setTimeout(beat, registered ? NODE_HEARTBEAT_MS : 250);
  };
  void beat();

  return {
    nodeId,
    /** Its WebRTC sessions and counts, when it takes WebRTC. */
    webrtcStats: () => whip?.stats(),
    async stop() {
      leaving = true;
      clearTimeout(heartbeat);
      whip?.endAll();
      await signal?.close();
      await Promise.all([...broadcasts.values()].map((b) => b.end()));
      await app.nodeBeat({ ...state(), leaving: true }).catch(() => undefined);
      await nms.stop();
      await feeds.remove();
      await fs.rm(scratchDir, { recursive: true, force: true });
    },
  };
}

/**
 * This process's scratch folder under DATA_DIR/media, with its pid: folders of
 * processes that died (kill -9) are removed here, while other nodes sharing the
 * folder (on one machine) keep theirs.
 */
async function scratchFolder(parent: string): Promise<string> {
  await fs.mkdir(parent, { recursive: true });
  for (const name of await fs.readdir(parent)) {
    const pid = Number(/^node-(\d+)$/.exec(name)?.[1]);
    if (pid && !processAlive(pid)) await fs.rm(path.join(parent, name), { recursive: true, force: true });
  }
  // Earlier versions let NMS keep its publish history here; it lists stream keys.
  await fs.rm(path.join(parent, "nms"), { recursive: true, force: true });
  const dir = path.join(parent, `node-${process.pid}`);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir);
  return dir;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
