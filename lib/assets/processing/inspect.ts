import { containerOf, type Container } from "@/lib/av/containers";
import { ffmpeg, userMediaInput } from "@/lib/av/ffmpeg";
import { frameRate, probeUserMedia, type Probe, type ProbeStream } from "@/lib/av/probe";
import type { VideoSpec } from "../schema";

/** A file the platform cannot take: one that cannot be decoded, or has no video. */
export class MediaRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaRejected";
  }
}

/** The colour of an HDR picture as ffprobe names it (zscale takes the same names), to tone-map from. */
export interface HdrColour {
  transfer: string;
  primaries: string;
  matrix: string;
  /** "tv" (limited) or "pc" (full). */
  range: string;
}

/** How the original becomes what browsers play, decided once from its probe. */
export interface SourcePlan {
  /** The demuxer the file was found to be: the only one it is opened with from now on. */
  demuxer: string;
  /**
   * Why it is transcoded to H.264/AAC ("video hevc", "audio opus", "HDR (smpte2084)",
   * "rotated 90°"); empty when browsers play its codecs as they are and its HLS is a remux.
   */
  transcodeBecause: string[];
  /** Browsers play its video as it is (only its audio is not): the transcode copies the video. */
  videoPlays: boolean;
  /** The streams used (ffprobe's indexes): the first video that is not a cover picture, the first audio. */
  video: number;
  audio?: number;
  audioChannels?: number;
  /** Set for an HDR picture: the transcode tone-maps it to SDR BT.709. */
  hdr?: HdrColour;
}

export interface Inspected {
  videoSpec: VideoSpec;
  plan: SourcePlan;
}

/** Transfer functions of HDR video: PQ (HDR10, Dolby Vision's base) and HLG. */
const HDR_TRANSFERS = new Set(["smpte2084", "arib-std-b67"]);
/** Pixel formats of the H.264 browsers decode (8-bit 4:2:0; not High 10 or 4:2:2). */
const BROWSER_PIXEL_FORMATS = new Set(["yuv420p", "yuvj420p"]);

const num = (text?: string | number) => {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * Probes a user's file (as that one file and nothing it names: userMediaInput in
 * lib/av/ffmpeg.ts), refuses what has no video or cannot be decoded, and plans how
 * it becomes playable. ffprobe's exit code is not trusted alone (it "recognises" random
 * bytes as some format): a picture of its video must decode.
 */
export async function inspectMedia(input: string): Promise<Inspected> {
  let info: Probe;
  try {
    info = await probeUserMedia(input);
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? "").trim();
    // Not ffprobe's words for a refused format: they would name the demuxer and what it tried to open.
    if (/Format not on whitelist/.test(stderr)) {
      throw new MediaRejected("Unsupported file: it is not a single media file in a format Castline reads (playlists and lists of other files are not read).");
    }
    const why = /moov atom not found/.test(stderr)
      ? "it is not a complete MP4 or MOV file (no moov atom: truncated?)"
      : /Invalid data found/.test(stderr)
        ? "it is not a video file ffmpeg recognises"
        : `it could not be read (${
            stderr
              .split("\n")
              .pop()
              ?.replace(/^.*?: /, "") || "unknown error"
          })`;
    throw new MediaRejected(`Cannot be decoded: ${why}.`);
  }
  const streams = (type: string) => info.streams.filter((s) => s.codec_type === type);
  const video = streams("video").filter((s) => s.disposition?.attached_pic !== 1);
  const audio = streams("audio");
  const container = containerOf(info.format.format_name ?? "", info.format.tags?.major_brand, [...video, ...audio].map(codecOf));
  const found = describe(container, info.format.format_name, video, audio);
  if (!container) throw new MediaRejected(`Cannot be decoded: found ${found}, a format Castline does not read.`);
  if (!video.length) {
    const what = audio.length ? `only audio (${container.audioOnly ? container.format : audio.map(codecOf).join(", ")})` : "no audio or video";
    const cover = streams("video").length ? " and a cover picture" : "";
    throw new MediaRejected(`No video stream: the file holds ${what}${cover}. Castline takes videos, with or without sound.`);
  }
  const plan = sourcePlan(container, info, video[0], audio[0]);
  await mustDecode(input, plan, found);
  return { videoSpec: videoSpec(container, info, video[0], audio[0]), plan };
}

/** What browsers play as is: H.264 (8-bit 4:2:0, SDR, upright) and AAC or no sound; anything else is transcoded. */
function sourcePlan(container: Container, info: Probe, video: ProbeStream, audio?: ProbeStream): SourcePlan {
  const because: string[] = [];
  if (video.codec_name !== "h264") because.push(`video ${codecOf(video)}`);
  else if (!BROWSER_PIXEL_FORMATS.has(video.pix_fmt ?? "")) because.push(`pixel format ${video.pix_fmt ?? "unknown"}`);
  const hdr = hdrColour(video);
  if (hdr) because.push(`HDR (${hdr.transfer})`);
  const rotation = rotationOf(video);
  if (rotation) because.push(`rotated ${rotation}°`);
  // A cover picture first would be what a remux's "first video" is.
  if (info.streams.find((s) => s.codec_type === "video") !== video) because.push("a cover picture before the video");
  const videoPlays = !because.length;
  if (audio && audio.codec_name !== "aac") because.push(`audio ${codecOf(audio)}`);
  return {
    demuxer: container.demuxer,
    transcodeBecause: because,
    videoPlays,
    video: video.index,
    ...(audio ? { audio: audio.index, audioChannels: audio.channels } : {}),
    ...(hdr ? { hdr } : {}),
  };
}

function hdrColour(video: ProbeStream): HdrColour | undefined {
  if (!HDR_TRANSFERS.has(video.color_transfer ?? "")) return undefined;
  // Tagged with the transfer alone: HDR video's primaries and matrix are BT.2020's.
  const known = (value: string | undefined, otherwise: string) => (value && value !== "unknown" && value !== "unspecified" ? value : otherwise);
  return {
    transfer: video.color_transfer!,
    primaries: known(video.color_primaries, "bt2020"),
    matrix: known(video.color_space, "bt2020nc"),
    range: video.color_range === "pc" ? "pc" : "tv",
  };
}

/** Degrees the picture is turned to be shown upright (a phone held upright: 90 or 270), 0 when it is not. */
export function rotationOf(video: ProbeStream): number {
  const matrix = video.side_data_list?.find((d) => d.side_data_type === "Display Matrix")?.rotation;
  const degrees = Math.round(Number(matrix ?? video.tags?.rotate ?? 0));
  return Number.isFinite(degrees) ? ((degrees % 360) + 360) % 360 : 0;
}

/**
 * A second of the streams used must decode to at least one picture: a file whose
 * header probes well can still hold nothing ffmpeg decodes (no decoder, damaged data).
 */
async function mustDecode(input: string, plan: SourcePlan, found: string): Promise<void> {
  let frames = 0;
  let failure: string | undefined;
  const maps = ["-map", `0:${plan.video}`, ...(plan.audio !== undefined ? ["-map", `0:${plan.audio}`] : [])];
  try {
    await ffmpeg([...userMediaInput(input, plan.demuxer), ...maps, "-t", "1", "-f", "null", "-"], {
      onProgress: (fields) => (frames = Number(fields.frame) || frames),
    });
  } catch (err) {
    // ffmpeg's first complaint names the cause ("partial file", "Decoder not found"); what follows is its consequences.
    const first = String((err as Error).message)
      .replace(/^ffmpeg failed \(.*?\): /, "")
      .split("\n")[0];
    failure = first.replace(/^\[.*?\] /, "") || "unknown error";
  }
  if (!frames) {
    throw new MediaRejected(`Cannot be decoded: found ${found}, but no picture of its video could be decoded (${failure ?? "damaged or incomplete?"}).`);
  }
  if (failure) throw new MediaRejected(`Cannot be decoded: found ${found}, and ffmpeg could not decode it (${failure}).`);
}

const codecOf = (s: ProbeStream) => (s.codec_name && s.codec_name !== "none" ? s.codec_name : "an unknown codec");

function describe(container: Container | undefined, formatName: string | undefined, video: ProbeStream[], audio: ProbeStream[]): string {
  const name = container ? container.format.toUpperCase() : formatName || "an unknown format";
  const codecs = (list: ProbeStream[], kind: string) => (list.length ? `${kind} ${list.map(codecOf).join(", ")}` : `no ${kind}`);
  return `${name} with ${codecs(video, "video")} and ${codecs(audio, "audio")}`;
}

/** The source as it is (its real container and codecs), its picture as shown: upright. */
function videoSpec(container: Container, info: Probe, video: ProbeStream, audio?: ProbeStream): VideoSpec {
  const duration = num(info.format.duration) ?? num(video.duration) ?? 0;
  const turned = rotationOf(video) % 180 === 90;
  const [width, height] = turned ? [video.height ?? 0, video.width ?? 0] : [video.width ?? 0, video.height ?? 0];
  const tracks: VideoSpec["tracks"] = [
    {
      type: "video",
      codec: codecOf(video),
      width,
      height,
      fps: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
      bitrate: num(video.bit_rate),
      duration: num(video.duration),
      pixelFormat: video.pix_fmt,
    },
  ];
  if (audio) {
    tracks.push({
      type: "audio",
      codec: codecOf(audio),
      bitrate: num(audio.bit_rate),
      channels: audio.channels,
      duration: num(audio.duration),
      sampleRate: num(audio.sample_rate),
    });
  }
  return { format: container.format, duration, bitrate: num(info.format.bit_rate), tracks };
}
