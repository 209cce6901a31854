import type { ChildProcess } from "node:child_process";
import { randomBytes, timingSafeEqual } from "node:crypto";
import dgram from "node:dgram";
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Audio, PeerConnection, RtcpNackResponder, RtcpReceivingSession, type Track, Video } from "node-datachannel";
import Context, { type NmsBroadcast } from "node-media-server/src/core/context.js";
import Flv from "node-media-server/src/protocol/flv.js";
import BroadcastServer from "node-media-server/src/server/broadcast_server.js";
import BaseSession from "node-media-server/src/session/base_session.js";
import { config } from "@/lib/config";
import type { WebrtcStats } from "@/lib/metrics/media";
import { spawnTied } from "@/lib/tied-process";
import type { Feed } from "./feed";
import { chooseFromOffer, ffmpegSdp, matchViewerOffer, type OfferChoice, type OfferedMedia, withPublicAddresses } from "./sdp";
import { RENDITION_FORMATS, WebrtcRendition } from "./webrtc-rendition";

/**
 * WHIP ingest on a media node: a publisher's WebRTC (a browser, OBS 30+, any WHIP encoder) turned
 * into the same broadcast an RTMP publish makes, so that everything after the RTMP server (the
 * publish check, the session, the ladder, recording, multistream, DVR, clips, health, webhooks)
 * is the same. libdatachannel (node-datachannel) terminates ICE, DTLS and SRTP and answers RTCP;
 * the received RTP goes to an ffmpeg over loopback UDP, which writes FLV (H.264 copied, Opus to
 * AAC; VP8/VP9 transcoded to H.264) that this process hands to node-media-server as the
 * publisher of /live/<stream key>. The key is never on a command line: ffmpeg's input is an SDP
 * on its stdin and its output its stdout.
 */

/** How long ICE and DTLS may take before a session that never connected is dropped. */
const CONNECT_WITHIN_MS = 15_000;
/** How long gathering the node's candidates may take before answering with what it has. */
const GATHER_WITHIN_MS = 2000;
/** How long a receiver (ffmpeg) waits for the publisher's first packets: past the connection's own deadline. */
const RECEIVER_WAITS_S = CONNECT_WITHIN_MS / 1000 + 15;
/** Receivers started for a session in all, when one ends before writing anything. */
const RECEIVER_STARTS = 3;
/** What is kept of a receiver's stderr. */
const STDERR_TAIL_CHARS = 2000;
/** How often a publisher is asked for a keyframe until the first one reached the broadcast. */
const FIRST_KEYFRAME_ASK_MS = 300;
/** Packets kept per viewer's track to send again when asked (NACK): about a second of 720p at 2.5 Mb/s. */
const NACK_HISTORY_PACKETS = 512;
/** The bitrate asked of publishers (REMB): a 720p broadcast's. Browsers otherwise stay near 300 kb/s. */
const ASKED_BPS = 2_500_000;

export interface WhipOptions {
  /** How often to ask the publisher for a keyframe: each HLS segment starts on one. */
  keyframeEveryS: number;
  /** ICE candidates' UDP ports (WEBRTC_UDP_PORTS), else any. */
  portRange?: { begin: number; end: number };
  /** The address ICE binds and announces; else every interface's. */
  bindAddress?: string;
  /** Addresses offered besides the bound one (WEBRTC_PUBLIC_HOSTS: the public side of 1:1 NAT). */
  publicAddresses?: string[];
  /** A broadcast live on this node by its stream key (its feed, whether it has audio): WHEP viewers of a publish not made over WebRTC watch a rendition of it. */
  feedOf?: (streamKey: string) => { feed: Feed; audio: boolean } | undefined;
}

/** How long a rendition made for WHEP viewers runs on after its last viewer left (one reloading the page comes back). */
const RENDITION_LINGER_MS = 15_000;

/** What a WebRTC publish's session gives as its address (node.ts tells the app the publish came over WebRTC). */
export const WEBRTC_PUBLISHER = "webrtc";

/** The publisher's side of a broadcast, as node.ts reads it from an RTMP connection. */
class SessionLink extends EventEmitter {
  destroyed = false;
  constructor(private readonly onDestroy: () => void) {
    super();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.onDestroy();
    this.emit("close");
  }
}

/**
 * A WHIP publish as node-media-server's publisher of its stream path: the FLV ffmpeg makes is
 * parsed into packets and broadcast to the node's readers (the ladder, the recorder, pushes).
 */
class WhipPublisher extends BaseSession {
  readonly socket: SessionLink;
  /** Whether a video keyframe went out yet: ffmpeg copies none of the frames before one. */
  videoStarted = false;
  private readonly flv = new Flv();
  private broadcast?: NmsBroadcast;

  constructor(streamKey: string, onDestroy: () => void) {
    super();
    this.protocol = "flv";
    this.ip = WEBRTC_PUBLISHER;
    this.streamApp = "live";
    this.streamName = streamKey;
    this.streamPath = `/live/${streamKey}`;
    this.socket = new SessionLink(() => {
      this.stop();
      onDestroy();
    });
    this.flv.onPacketCallback = (packet) => {
      // node-media-server's flags: 3 is a video keyframe.
      if (packet.codec_type === 9 && packet.flags === 3) this.videoStarted = true;
      this.broadcast?.broadcastMessage(packet);
    };
  }

  /** FLV from ffmpeg; the first bytes start the publish (node.ts then asks the app about the key). */
  data(chunk: Buffer) {
    if (this.socket.destroyed) return;
    if (!this.broadcast) {
      const broadcast = Context.broadcasts.get(this.streamPath) ?? new BroadcastServer(this.streamPath);
      Context.broadcasts.set(this.streamPath, broadcast);
      const refused = broadcast.postPublish(this);
      if (refused) return this.socket.destroy(); // another publisher of this key on this node
      this.broadcast = broadcast;
    }
    this.inBytes += chunk.length;
    if (this.flv.parserData(chunk)) this.socket.destroy();
  }

  private stop() {
    this.broadcast?.donePublish(this);
    this.broadcast = undefined;
  }

  override close = () => this.socket.destroy();
}

/** Four free loopback UDP ports: video's RTP and RTCP (ffmpeg binds the next one too), then audio's. */
async function rtpPorts(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 20_000 + 4 * Math.floor(Math.random() * 10_000);
    const sockets = await Promise.all(
      [port, port + 1, port + 2, port + 3].map(
        (p) =>
          new Promise<dgram.Socket | undefined>((resolve) => {
            const s = dgram.createSocket("udp4");
            s.once("error", () => resolve(undefined));
            s.bind(p, "127.0.0.1", () => resolve(s));
          }),
      ),
    );
    for (const s of sockets) s?.close();
    if (sockets.every(Boolean)) return port;
  }
  throw new Error("no free loopback UDP ports for the received RTP");
}

/**
 * An RTP packet as ffmpeg and WHEP viewers take it: header extensions (which ffmpeg's depacketisers
 * stumble on, and which a viewer did not negotiate) removed; undefined for a packet of padding
 * alone (congestion probes carry nothing).
 */
export function plainRtp(packet: Buffer): Buffer | undefined {
  if (packet.length < 12 || packet[0] >> 6 !== 2) return undefined;
  const csrcBytes = (packet[0] & 0x0f) * 4;
  const headerEnd = 12 + csrcBytes;
  let out = packet;
  if (packet[0] & 0x10) {
    if (packet.length < headerEnd + 4) return undefined;
    const extensionBytes = 4 + packet.readUInt16BE(headerEnd + 2) * 4;
    out = Buffer.concat([packet.subarray(0, headerEnd), packet.subarray(headerEnd + extensionBytes)]);
    out[0] &= ~0x10;
  }
  const padding = out[0] & 0x20 ? out[out.length - 1] : 0;
  if (out.length - headerEnd - padding <= 0) return undefined;
  return out;
}

export interface WhipSession {
  id: string;
  answer: string;
}

type Kind = "video" | "audio";

/**
 * What WHEP viewers of a stream on this node receive: a WebRTC publish as it arrives, or a
 * rendition made for them of any other (webrtc-rendition.ts). Its formats, its viewers, and how a
 * viewer's keyframe request reaches it.
 */
interface Source {
  choice: OfferChoice;
  viewers: Set<Viewer>;
  keyframe(): void;
  /** A viewer left. */
  left?(): void;
}

interface Viewer {
  forward(kind: Kind, rtp: Buffer): void;
  end(): void;
}

/** The WebRTC sessions of one media node: publishes (WHIP) and their viewers (WHEP). */
export class WhipIngest {
  private readonly counts = { receivedBytes: 0, sentBytes: 0, keyframeRequests: 0, nacked: 0, lostByPublishers: 0, lostBySent: 0 };
  private readonly sessions = new Map<string, () => void>();
  /** By stream key: the one publish of each stream on this node, when made over WebRTC. */
  private readonly published = new Map<string, Source>();
  /** By stream key: the renditions for WHEP viewers of other publishes, while watched; once started, whether each copies its broadcast's video or makes it. */
  private readonly renditions = new Map<string, { source: Source; started: Promise<WebrtcRendition>; video?: "copied" | "made" }>();

  constructor(private readonly opts: WhipOptions) {}

  private peer(name: string) {
    return new PeerConnection(name, {
      iceServers: [],
      ...(this.opts.portRange ? { portRangeBegin: this.opts.portRange.begin, portRangeEnd: this.opts.portRange.end } : {}),
      ...(this.opts.bindAddress ? { bindAddress: this.opts.bindAddress } : {}),
    });
  }

  /**
   * Answers an offer: the node receives the chosen formats and publishes them as the stream's
   * broadcast once they flow. Undefined when the offer has no video the node can take.
   */
  async offer(streamKey: string, offerSdp: string): Promise<WhipSession | undefined> {
    const choice = chooseFromOffer(offerSdp);
    if (!choice.video) return undefined;
    const id = randomBytes(16).toString("hex");
    const pc = this.peer(`whip-${id.slice(0, 8)}`);
    const tracks = new Map<Kind, Track>();
    for (const kind of ["video", "audio"] as const) {
      const media = choice[kind];
      if (!media) continue;
      const description = kind === "video" ? videoDescription(media, "RecvOnly") : new Audio(media.mid, "RecvOnly");
      if (kind === "audio") (description as Audio).addOpusCodec(media.payloadType, media.fmtp);
      const track = pc.addTrack(description);
      track.setMediaHandler(new RtcpReceivingSession());
      tracks.set(kind, track);
    }

    const port = await rtpPorts();
    const ports = { video: port, audio: choice.audio ? port + 2 : undefined };
    const udp = dgram.createSocket("udp4");
    const publisher = new WhipPublisher(streamKey, () => end("its broadcast ended"));
    let receiver: Receiver;
    let receiverStarts = 0;
    const startReceiver = () => {
      receiverStarts++;
      receiver = spawnReceiver(choice, ports, this.opts.keyframeEveryS);
      receiver.child.stdout!.on("data", (chunk: Buffer) => publisher.data(chunk));
      receiver.child.once("exit", (code, signal) => {
        if (ended) return;
        // Gone before it wrote anything (nothing it could make a picture of reached it in time):
        // another takes its place on the same ports while the publisher is there. Once it has
        // written, the broadcast's stream cannot be begun again: the session ends with it.
        if (publisher.inBytes === 0 && receiverStarts < RECEIVER_STARTS) {
          console.error(
            `[whip] session ${id.slice(0, 8)}: the receiver ended (${code ?? signal}) before any media, starting it again: ${receiver.stderrTail()}`,
          );
          return startReceiver();
        }
        end(`the receiver ended (${code ?? signal}): ${receiver.stderrTail()}`);
      });
    };
    startReceiver();

    const published: Source = { choice, viewers: new Set(), keyframe: () => tracks.get("video")?.requestKeyframe() };
    this.published.set(streamKey, published);
    let keyframes: NodeJS.Timeout | undefined;
    let ended = false;
    /** Ends the session; why, when not asked to (the publisher's DELETE, the node stopping), is logged. */
    const end = (why?: string) => {
      if (ended) return;
      ended = true;
      if (why) console.error(`[whip] session ${id.slice(0, 8)} ended: ${why}`);
      this.sessions.delete(id);
      if (this.published.get(streamKey) === published) this.published.delete(streamKey);
      for (const viewer of published.viewers) viewer.end();
      clearInterval(keyframes);
      clearTimeout(connectTimer);
      for (const track of tracks.values()) track.close();
      pc.close();
      udp.close();
      if (receiver.child.exitCode === null) receiver.child.kill("SIGTERM");
      publisher.socket.destroy();
    };
    this.sessions.set(id, () => end());
    const connectTimer = setTimeout(() => end(`not connected within ${CONNECT_WITHIN_MS / 1000} s (${pc.state()})`), CONNECT_WITHIN_MS);

    for (const [kind, track] of tracks) {
      const media = choice[kind]!;
      const to = ports[kind]!;
      let lastSequence: number | undefined;
      track.onMessage((packet) => {
        this.counts.receivedBytes += packet.length;
        if ((packet[1] & 0x7f) !== media.payloadType) return; // RTCP, retransmissions
        // Packets that never came: a jump forward in the sequence (a late one arrives behind it).
        const sequence = packet.readUInt16BE(2);
        const ahead = lastSequence === undefined ? 1 : (sequence - lastSequence) & 0xffff;
        if (ahead > 0 && ahead < 0x8000) {
          this.counts.lostByPublishers += ahead - 1;
          lastSequence = sequence;
        }
        const rtp = plainRtp(packet);
        if (!rtp || ended) return;
        udp.send(rtp, to, "127.0.0.1");
        for (const viewer of published.viewers) viewer.forward(kind, rtp);
      });
      if (kind === "video") {
        track.onOpen(() => {
          clearTimeout(connectTimer);
          track.requestBitrate(ASKED_BPS);
          // Until ffmpeg (started as the offer was answered) has passed on a keyframe, ask again
          // often: one that came before it listened is lost, and the broadcast (its HLS, its
          // recording) would begin with seconds of sound alone.
          const untilVideo = setInterval(() => {
            if (publisher.videoStarted || !track.isOpen()) return clearInterval(untilVideo);
            track.requestKeyframe();
          }, FIRST_KEYFRAME_ASK_MS);
          track.requestKeyframe();
          keyframes = setInterval(() => {
            if (!track.isOpen()) return;
            track.requestKeyframe();
            track.requestBitrate(ASKED_BPS);
          }, this.opts.keyframeEveryS * 1000);
        });
      }
    }
    pc.onStateChange((state) => {
      if (state === "failed" || state === "closed" || state === "disconnected") end(`the connection ${state}`);
    });

    return { id, answer: withPublicAddresses(await answerOf(pc, offerSdp, () => end("no answer made")), this.opts.publicAddresses ?? []) };
  }

  /**
   * Answers a viewer's offer (WHEP) for a stream live on this node: its packets (the WebRTC
   * publisher's, or the rendition's made for viewers) are forwarded as they arrive (payload type
   * and SSRC made the viewer's); a WebRTC publisher is asked for a keyframe when a viewer joins or
   * asks. Undefined when the stream is not live here, or the viewer cannot take its codecs.
   */
  async watch(streamKey: string, offerSdp: string): Promise<WhipSession | undefined> {
    const source = this.published.get(streamKey) ?? (await this.renditionOf(streamKey));
    if (!source) return undefined;
    // A source without sound still answers the viewer's audio (silent): Chrome showed no picture
    // of a video-only publish to a viewer whose offered audio section the answer left out.
    const choice = matchViewerOffer(offerSdp, { ...source.choice, audio: source.choice.audio ?? RENDITION_FORMATS.audio });
    if (!choice.video) return undefined;
    const id = randomBytes(16).toString("hex");
    const pc = this.peer(`whep-${id.slice(0, 8)}`);
    const keyframe = () => source.keyframe();
    const out = new Map<Kind, { track: Track; payloadType: number; ssrc: number }>();
    for (const kind of ["video", "audio"] as const) {
      const media = choice[kind];
      if (!media) continue;
      const description = kind === "video" ? videoDescription(media, "SendOnly") : new Audio(media.mid, "SendOnly");
      if (kind === "audio") (description as Audio).addOpusCodec(media.payloadType, media.fmtp);
      const ssrc = randomBytes(4).readUInt32BE();
      description.addSSRC(ssrc, "castline", "castline", kind);
      const track = pc.addTrack(description);
      // What the viewer missed is sent again from the last packets sent (libdatachannel keeps them).
      track.setMediaHandler(new RtcpNackResponder(NACK_HISTORY_PACKETS));
      let lostBefore = 0;
      track.onMessage((rtcp) => {
        const said = readViewerRtcp(rtcp);
        this.counts.nacked += said.nacked;
        const lost = said.lost.get(ssrc);
        if (lost !== undefined && lost > lostBefore) {
          this.counts.lostBySent += lost - lostBefore;
          lostBefore = lost;
        }
        if (kind === "video" && said.keyframe) {
          this.counts.keyframeRequests++;
          keyframe();
        }
      });
      if (kind === "video") track.onOpen(keyframe);
      out.set(kind, { track, payloadType: media.payloadType, ssrc });
    }
    const forward = (kind: Kind, rtp: Buffer) => {
      const to = out.get(kind);
      if (!to?.track.isOpen()) return;
      const copy = Buffer.from(rtp);
      copy[1] = (copy[1] & 0x80) | to.payloadType;
      copy.writeUInt32BE(to.ssrc, 8);
      if (to.track.sendMessageBinary(copy)) this.counts.sentBytes += copy.length;
    };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(connectTimer);
      source.viewers.delete(viewer);
      source.left?.();
      this.sessions.delete(id);
      for (const { track } of out.values()) track.close();
      pc.close();
    };
    const connectTimer = setTimeout(() => pc.state() !== "connected" && end(), CONNECT_WITHIN_MS);
    const viewer: Viewer = { forward, end };
    this.sessions.set(id, end);
    source.viewers.add(viewer);
    pc.onStateChange((state) => {
      if (state === "failed" || state === "closed" || state === "disconnected") end();
    });
    return { id, answer: withPublicAddresses(await answerOf(pc, offerSdp, end), this.opts.publicAddresses ?? []) };
  }

  /**
   * The rendition WHEP viewers of a publish not made over WebRTC watch: started by the first
   * viewer, shared by the others, stopped RENDITION_LINGER_MS after the last left or when the
   * broadcast ends (its feed closes: ffmpeg exits), and every viewer's session with it.
   */
  private async renditionOf(streamKey: string): Promise<Source | undefined> {
    const running = this.renditions.get(streamKey);
    if (running) return running.started.then(() => running.source);
    const live = this.opts.feedOf?.(streamKey);
    if (!live) return undefined;
    let linger: NodeJS.Timeout | undefined;
    const source: Source = {
      choice: RENDITION_FORMATS,
      viewers: new Set(),
      keyframe: () => {}, // one every second regardless (webrtc-rendition.ts)
      left: () => {
        clearTimeout(linger);
        if (!source.viewers.size) linger = setTimeout(() => source.viewers.size || void entry.started.then((r) => r.stop()), RENDITION_LINGER_MS);
      },
    };
    const ended = () => {
      clearTimeout(linger);
      if (this.renditions.get(streamKey) === entry) this.renditions.delete(streamKey);
      for (const viewer of source.viewers) viewer.end();
    };
    const forward = (kind: Kind, rtp: Buffer) => {
      for (const viewer of source.viewers) viewer.forward(kind, rtp);
    };
    const entry: { source: Source; started: Promise<WebrtcRendition>; video?: "copied" | "made" } = {
      source,
      started: WebrtcRendition.start(live.feed, live.audio, forward, ended).then(
        (started) => {
          entry.video = started.video;
          return started;
        },
        (err: Error) => {
          ended();
          throw err;
        },
      ),
    };
    this.renditions.set(streamKey, entry);
    await entry.started;
    return source;
  }

  /** Ends a session (the publisher's DELETE); false when there is none by that id. */
  end(id: string): boolean {
    const end = this.sessions.get(id);
    end?.();
    return Boolean(end);
  }

  stats(): WebrtcStats {
    const published = [...this.published.values()];
    const renditions = [...this.renditions.values()];
    const viewers = [...published, ...renditions.map((r) => r.source)].reduce((n, s) => n + s.viewers.size, 0);
    const count = (video: "copied" | "made") => renditions.filter((r) => r.video === video).length;
    return { publishers: published.length, viewers, renditions: { copied: count("copied"), made: count("made") }, ...this.counts };
  }

  endAll() {
    for (const end of [...this.sessions.values()]) end();
    for (const { started } of this.renditions.values())
      void started.then(
        (r) => r.stop(),
        () => {},
      );
  }
}

/** Sets the offer, waits for the node's candidates (GATHER_WITHIN_MS at most), and returns the answer. */
async function answerOf(pc: PeerConnection, offerSdp: string, end: () => void): Promise<string> {
  pc.setRemoteDescription(offerSdp, "offer");
  await new Promise<void>((resolve) => {
    if (pc.gatheringState() === "complete") return resolve();
    const timer = setTimeout(resolve, GATHER_WITHIN_MS);
    pc.onGatheringStateChange((state) => {
      if (state !== "complete") return;
      clearTimeout(timer);
      resolve();
    });
  });
  const answer = pc.localDescription()?.sdp;
  if (!answer) {
    end();
    throw new Error("the WebRTC stack made no answer");
  }
  return answer;
}

/** What a viewer's compound RTCP packet says that the node acts on or counts. */
export interface ViewerRtcp {
  /** A PLI or a FIR: it wants a keyframe. */
  keyframe: boolean;
  /** Packets it asked again (generic NACK: each entry one packet, and one more per bit of its mask). */
  nacked: number;
  /** Its reports' cumulative packets lost, by the SSRC they report on (receiver and sender reports). */
  lost: Map<number, number>;
}

export function readViewerRtcp(rtcp: Buffer): ViewerRtcp {
  const said: ViewerRtcp = { keyframe: false, nacked: 0, lost: new Map() };
  for (let at = 0; at + 8 <= rtcp.length; ) {
    const end = Math.min(rtcp.length, at + (rtcp.readUInt16BE(at + 2) + 1) * 4);
    const count = rtcp[at] & 0x1f; // reports (SR, RR) or the feedback's format (RTPFB, PSFB)
    const type = rtcp[at + 1];
    if (type === 206 && (count === 1 || count === 4)) said.keyframe = true;
    if (type === 205 && count === 1) for (let fci = at + 12; fci + 4 <= end; fci += 4) said.nacked += 1 + popcount(rtcp.readUInt16BE(fci + 2));
    if (type === 200 || type === 201) {
      const first = at + (type === 200 ? 28 : 8);
      for (let block = first, n = 0; n < count && block + 24 <= end; block += 24, n++) said.lost.set(rtcp.readUInt32BE(block), rtcp.readIntBE(block + 5, 3));
    }
    at = end;
  }
  return said;
}

const popcount = (bits: number) => {
  let n = 0;
  for (let b = bits; b; b &= b - 1) n++;
  return n;
};

function videoDescription(media: OfferedMedia, direction: "RecvOnly" | "SendOnly"): Video {
  const video = new Video(media.mid, direction);
  if (/^h264$/i.test(media.codec)) video.addH264Codec(media.payloadType, media.fmtp);
  else if (/^vp8$/i.test(media.codec)) video.addVP8Codec(media.payloadType);
  else video.addVP9Codec(media.payloadType);
  return video;
}

/** ffmpeg reading the RTP (its SDP on stdin) and writing FLV on stdout: H.264 copied, else made; Opus to AAC. */
interface Receiver {
  child: ChildProcess;
  /** The end of what it wrote to stderr: why it stopped. */
  stderrTail(): string;
}

function spawnReceiver(choice: OfferChoice, ports: { video?: number; audio?: number }, keyframeEveryS: number): Receiver {
  const h264 = /^h264$/i.test(choice.video?.codec ?? "");
  const args = [
    // Errors (until the first keyframe, probing reports each frame it cannot decode yet: only the tail is kept).
    ["-hide_banner", "-loglevel", "error", "-nostdin"],
    // -listen_timeout: ffmpeg gives up on RTP that has not come within 10 s by default, sooner than
    // a loaded machine may connect (CONNECT_WITHIN_MS): the session was ended with nothing live.
    // -buffer_size: a 720p keyframe comes in a burst of a hundred packets; a busy ffmpeg reads late.
    [
      "-protocol_whitelist",
      "pipe,udp,rtp",
      "-analyzeduration",
      "2000000",
      "-listen_timeout",
      String(RECEIVER_WAITS_S),
      "-buffer_size",
      String(4 * 1024 * 1024),
    ],
    ["-f", "sdp", "-i", "pipe:0"],
    // Made H.264: a keyframe where each HLS segment should start. x264's own (every 250 frames:
    // 8 s at 30 fps, 25 s from a browser down to 10 fps on a busy machine) made segments that
    // long, and the stream went live only once the first of them was complete.
    h264
      ? ["-c:v", "copy"]
      : [
          "-c:v",
          "libx264",
          "-preset",
          "veryfast",
          "-tune",
          "zerolatency",
          "-pix_fmt",
          "yuv420p",
          "-force_key_frames",
          `expr:gte(t,n_forced*${keyframeEveryS})`,
        ],
    choice.audio ? ["-c:a", "aac", "-b:a", "128k", "-ar", "48000"] : [],
    ["-f", "flv", "-flvflags", "no_duration_filesize", "pipe:1"],
  ].flat();
  const ffmpeg = spawnTied(config().FFMPEG_PATH, args, { stdio: ["pipe", "pipe", "pipe"] }, "SIGKILL");
  ffmpeg.stdin!.end(ffmpegSdp(choice, ports));
  ffmpeg.stdin!.on("error", () => {});
  let tail = "";
  ffmpeg.stderr!.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  return { child: ffmpeg, stderrTail: () => tail.trim().split("\n").slice(-3).join(" / ") };
}

/** The largest offer taken: a browser's is a few KB. */
const MAX_OFFER_BYTES = 64 * 1024;

/**
 * The node's WebRTC signalling, for app instances only (they check the key's stream, or admit the
 * viewer, and hand the offer on; lib/delivery/webrtc.ts): POST /whip/<stream key> (a publisher's
 * offer) or /whep/<stream key> (a viewer's) answers 201 with the answer and the session's id
 * (X-Session-Id), 406 when it cannot; DELETE /whip/<session id> ends either.
 */
export async function serveWhip(ingest: WhipIngest, opts: { host: string; port: number; secret: string }): Promise<{ port: number; close(): Promise<void> }> {
  const secret = Buffer.from(opts.secret);
  const server = http.createServer((req, res) => {
    const reply = (status: number, body = "", headers: Record<string, string> = {}) =>
      void res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(body);
    const given = Buffer.from(String(req.headers["x-media-secret"] ?? ""));
    if (given.length !== secret.length || !timingSafeEqual(given, secret)) return reply(401, "not an app instance of this deployment");
    const [, route, id, ...rest] = (req.url ?? "/").split("?")[0].split("/");
    if ((route !== "whip" && route !== "whep") || !id || rest.length || !/^[\w-]{1,200}$/.test(id)) return reply(404, "not found");
    if (req.method === "DELETE") return reply(ingest.end(id) ? 204 : 404);
    if (req.method !== "POST") return reply(405, "POST an offer, or DELETE a session", { allow: "POST, DELETE" });
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OFFER_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_OFFER_BYTES) return reply(413, "the offer is too large");
      const offer = Buffer.concat(chunks).toString("utf8");
      (route === "whip" ? ingest.offer(id, offer) : ingest.watch(id, offer)).then(
        (session) =>
          session
            ? reply(201, session.answer, { "content-type": "application/sdp", "x-session-id": session.id })
            : reply(
                406,
                route === "whip"
                  ? "the offer has no video this node takes (H.264, VP8 or VP9)"
                  : "the stream is not published here over WebRTC, or the viewer cannot take its video",
              ),
        (err: Error) => reply(400, `the offer could not be answered: ${err.message}`),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
