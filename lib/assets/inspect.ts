import { frameRate, probeUserMedia, type Probe, type ProbeStream } from "@/lib/media/probe";
import type { VideoSpec } from "./schema";

/** A file the platform does not take (the spec's limit: mp4 with H.264 video and AAC audio). */
export class MediaRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaRejected";
  }
}

const ACCEPTED = "Castline accepts MP4 files with H.264 video and AAC audio";
const MP4_FORMAT = "mov,mp4,m4a,3gp,3g2,mj2";

const num = (text?: string | number) => {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * Probes a user's file (as that one file and nothing it names: userMediaInput in
 * lib/media/ffmpeg.ts) and checks it against what the platform plays without
 * re-encoding. ffprobe's exit code is not trusted alone (it "recognises" random
 * bytes as a bintext video): the container and codecs are whitelisted.
 */
export async function inspectMedia(input: string): Promise<VideoSpec> {
  let info: Probe;
  try {
    info = await probeUserMedia(input);
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? "").trim();
    // Not ffprobe's words for a refused format: they would name the demuxer and what it tried to open.
    const why = /Format not on whitelist/.test(stderr)
      ? "it is not a single media file in a format Castline reads (playlists and lists of other files are not read)"
      : /moov atom not found/.test(stderr)
        ? "it is not a complete MP4 file (no moov atom: truncated, or not an MP4)"
        : /Invalid data found/.test(stderr)
          ? "it is not a video file ffprobe recognises"
          : `it could not be read (${stderr.split("\n").pop()?.replace(/^.*?: /, "") || "unknown error"})`;
    throw new MediaRejected(`Unsupported file: ${why}. ${ACCEPTED}.`);
  }
  const video = info.streams.filter((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1);
  const audio = info.streams.filter((s) => s.codec_type === "audio");
  const format = info.format.format_name ?? "unknown";
  const found = describe(format, video, audio);
  if (format !== MP4_FORMAT) throw new MediaRejected(`Unsupported container: found ${found}. ${ACCEPTED}.`);
  if (!video.length) throw new MediaRejected(`No video track: found ${found}. ${ACCEPTED}.`);
  if (video.some((s) => s.codec_name !== "h264")) throw new MediaRejected(`Unsupported video codec: found ${found}. ${ACCEPTED}.`);
  if (audio.some((s) => s.codec_name !== "aac")) throw new MediaRejected(`Unsupported audio codec: found ${found}. ${ACCEPTED}.`);
  return videoSpec(info, video[0], audio[0]);
}

function describe(format: string, video: ProbeStream[], audio: ProbeStream[]): string {
  const container = format === MP4_FORMAT ? "MP4" : format;
  const codecs = (list: ProbeStream[], kind: string) =>
    list.length ? `${kind} ${list.map((s) => s.codec_name ?? "unknown").join(", ")}` : `no ${kind}`;
  return `${container} with ${codecs(video, "video")} and ${codecs(audio, "audio")}`;
}

function videoSpec(info: Probe, video: ProbeStream, audio?: ProbeStream): VideoSpec {
  const duration = num(info.format.duration) ?? num(video.duration) ?? 0;
  const tracks: VideoSpec["tracks"] = [
    {
      type: "video",
      codec: video.codec_name!,
      width: video.width ?? 0,
      height: video.height ?? 0,
      fps: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
      bitrate: num(video.bit_rate),
      duration: num(video.duration),
      pixelFormat: video.pix_fmt,
    },
  ];
  if (audio) {
    tracks.push({
      type: "audio",
      codec: audio.codec_name!,
      bitrate: num(audio.bit_rate),
      channels: audio.channels,
      duration: num(audio.duration),
      sampleRate: num(audio.sample_rate),
    });
  }
  return { format: "mp4", duration, bitrate: num(info.format.bit_rate), tracks };
}
