import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { config } from "@/lib/config";
import { userMediaInput } from "./ffmpeg";

const exec = promisify(execFile);

export interface ProbeStream {
  index: number;
  codec_type: "video" | "audio" | string;
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  pix_fmt?: string;
  color_range?: string;
  color_space?: string;
  color_transfer?: string;
  color_primaries?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  duration?: string;
  channels?: number;
  sample_rate?: string;
  disposition?: { attached_pic?: number };
  /** A phone's rotation is a display matrix: `rotation` in degrees (counter-clockwise). */
  side_data_list?: { side_data_type?: string; rotation?: number }[];
  tags?: { rotate?: string };
}

export interface Probe {
  streams: ProbeStream[];
  format: { format_name?: string; duration?: string; size?: string; bit_rate?: string; tags?: { major_brand?: string } };
}

/** ffprobe next to the configured ffmpeg (FFMPEG_PATH), JSON output. */
export function ffprobePath(): string {
  const ffmpeg = config().FFMPEG_PATH;
  return ffmpeg.endsWith("ffmpeg") ? `${ffmpeg.slice(0, -"ffmpeg".length)}ffprobe` : "ffprobe";
}

/** Media of our own (segments, recordings, playlists): a file path or an http(s) URL (e.g. a pre-signed GET of an object). */
export function probe(input: string): Promise<Probe> {
  return run(["-i", input]);
}

/** Media a user gave us (an upload or an import, in the store), opened as that one file and nothing it names. */
export function probeUserMedia(input: string): Promise<Probe> {
  return run(userMediaInput(input));
}

async function run(inputArgs: string[]): Promise<Probe> {
  const { stdout } = await exec(ffprobePath(), ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...inputArgs], {
    maxBuffer: 16 * 1024 * 1024,
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Probe;
}

/** "30000/1001" -> 29.97 */
export function frameRate(text?: string): number | undefined {
  if (!text) return undefined;
  const [n, d] = text.split("/").map(Number);
  return d ? n / d : n || undefined;
}
