import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import { runFfmpeg, type FfmpegProcess } from "@/lib/av/ffmpeg";
import type { Feed } from "./feed";
import type { OfferChoice } from "./sdp";

/**
 * A broadcast published over RTMP (or SRT, or anything but WebRTC), made for WHEP viewers: an
 * ffmpeg reading the node's feed of it and sending RTP to this process over loopback UDP, which
 * forwards each packet to the stream's WebRTC viewers (media-node/whip.ts). H.264 without
 * B-frames is copied as it is (a new viewer waits for the encoder's next keyframe: ffmpeg's RTP
 * output cannot ask for one). Anything else is made: encoders commonly send B-frames (OBS's x264
 * does), which WebRTC players cannot take; the made video has none, a keyframe every second, at
 * most 720p. Audio becomes Opus. It runs only while someone watches.
 */

/** What the rendition sends, as a publisher's offer would say it: the formats viewers' offers are matched to. */
export const RENDITION_FORMATS: OfferChoice = {
  video: { mid: "0", payloadType: 96, codec: "H264", clockRate: 90_000, fmtp: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f" },
  audio: { mid: "1", payloadType: 111, codec: "opus", clockRate: 48_000, channels: 2, fmtp: "minptime=10;useinbandfec=1" },
};

/** Under the path MTU of any network WebRTC crosses, as browsers' own packets are. */
const RTP_PACKET_BYTES = 1200;
/** A keyframe this often (s): the longest a new viewer waits for a first frame. */
const KEYFRAME_EVERY_S = 1;

type Kind = "video" | "audio";

export class WebrtcRendition {
  private readonly sockets: Partial<Record<Kind, dgram.Socket>> = {};
  private ffmpeg?: FfmpegProcess;
  private stopped = false;

  private constructor(private readonly onPacket: (kind: Kind, rtp: Buffer) => void) {}

  /** Starts one for a broadcast (its feed, whether it has audio); `onPacket` gets each RTP packet; `onEnd` once it stopped or failed. */
  /** Whether the video is the broadcast's own, copied (H.264 without B-frames), or made. */
  video: "copied" | "made" = "made";

  static async start(feed: Feed, audio: boolean, onPacket: (kind: Kind, rtp: Buffer) => void, onEnd: () => void): Promise<WebrtcRendition> {
    const rendition = new WebrtcRendition(onPacket);
    const ports: Partial<Record<Kind, number>> = {};
    for (const kind of audio ? (["video", "audio"] as const) : (["video"] as const)) {
      const socket = dgram.createSocket("udp4");
      socket.on("message", (packet) => rendition.stopped || rendition.onPacket(kind, packet));
      // Port 0: the kernel's choice, bound before ffmpeg starts sending to it.
      await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
      rendition.sockets[kind] = socket;
      ports[kind] = socket.address().port;
    }
    // Its input is the feed's private socket (the stream key is on no command line); it joins at the last keyframe.
    rendition.video = feed.h264WithoutBFrames ? "copied" : "made";
    rendition.ffmpeg = runFfmpeg(renditionArgs(feed.input(false), ports, rendition.video === "copied"), { background: false });
    void rendition.ffmpeg.exited.then((code) => {
      // Its input ended (the broadcast did) or it failed: its viewers' sessions end with it.
      if (!rendition.stopped && code !== 0)
        console.error(`[webrtc] the rendition for WebRTC viewers failed (${code}): ${rendition.ffmpeg!.stderrTail().split("\n").slice(-3).join(" / ")}`);
      rendition.stop();
      onEnd();
    });
    return rendition;
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    void this.ffmpeg?.stop();
    for (const socket of Object.values(this.sockets)) socket.close();
  }
}

/** ffmpeg's arguments: the feed in, H.264 (copied, or made constrained baseline: no B-frames) and Opus out as RTP to loopback ports. */
export function renditionArgs(input: string, ports: Partial<Record<Kind, number>>, copyVideo = false): string[] {
  const { video, audio } = RENDITION_FORMATS;
  const rtp = (port: number) => `rtp://127.0.0.1:${port}?pkt_size=${RTP_PACKET_BYTES}`;
  // Random SSRCs: each viewer's packets get the viewer's own anyway (whip.ts), these only name the source.
  const ssrc = () => String(randomBytes(4).readUInt32BE() >>> 1);
  return [
    ["-hide_banner", "-loglevel", "error", "-nostdin"],
    // Read as it arrives (the feed is live), nothing buffered beyond what decoding needs.
    ["-fflags", "nobuffer", "-flags", "low_delay", "-f", "flv", "-i", input],
    copyVideo
      ? // Annex B, each keyframe with its parameter sets: a viewer joining mid-stream decodes from the next one.
        ["-map", "0:v:0", "-c:v", "copy", "-bsf:v", "h264_mp4toannexb"]
      : [
          ["-map", "0:v:0", "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-profile:v", "baseline", "-bf", "0"],
          ["-vf", "scale=-2:'min(720,ih)'", "-pix_fmt", "yuv420p", "-b:v", "2500k", "-maxrate", "2500k", "-bufsize", "1250k"],
          ["-force_key_frames", `expr:gte(t,n_forced*${KEYFRAME_EVERY_S})`, "-x264-params", "repeat-headers=1"],
        ].flat(),
    ["-payload_type", String(video!.payloadType), "-ssrc", ssrc(), "-f", "rtp", rtp(ports.video!)],
    ports.audio
      ? ["-map", "0:a:0", "-c:a", "libopus", "-b:a", "96k", "-ar", "48000", "-ac", "2", "-application", "lowdelay"].concat([
          "-payload_type",
          String(audio!.payloadType),
          "-ssrc",
          ssrc(),
          "-f",
          "rtp",
          rtp(ports.audio),
        ])
      : [],
  ].flat();
}
