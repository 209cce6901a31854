// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { type ChildProcess, spawnSync } from "node:child_process";
import { spawnTied } from "@/lib/tied-process";

/**
 * Broadcasts that cost the machine almost nothing to send: a test pattern encoded once into an
 * FLV file (what RTMP carries), then published in a loop at real-time pace with -c copy, so the
 * CPU goes to what is measured (the media node, the app), not to the publisher's encoder.
 * A keyframe every 2 s: the live segments are the default 2 s long.
 */
export function flvSource(file: string, opts: { seconds: number; size: string; kbps: number }) {
  const r = spawnSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=${opts.size}:rate=30`, "-f", "lavfi", "-i", "sine", "-t", String(opts.seconds),
    "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "60", "-b:v", `${opts.kbps}k`,
    "-c:a", "aac", "-f", "flv", file,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

/** Publishes the file over RTMP, looped, until killed (SIGINT: ffmpeg closes the stream properly). */
export function publishCopy(file: string, rtmpUrl: string): ChildProcess {
  return spawnTied("ffmpeg", ["-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", file, "-c", "copy", "-f", "flv", rtmpUrl], { stdio: "ignore" });
}
