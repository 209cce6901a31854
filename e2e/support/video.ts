// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A path for a file the specs make, in a folder of this worker's that goes when the worker exits. */
export function scratchFile(fileName: string): string {
  scratch ??= fs.mkdtempSync(path.join(os.tmpdir(), "castline-e2e-"));
  const dir = scratch;
  if (!cleanup) process.once("exit", (cleanup = () => fs.rmSync(dir, { recursive: true, force: true })));
  return path.join(scratch, fileName);
}
let scratch: string | undefined;
let cleanup: (() => void) | undefined;

/** An 8 s H.264/AAC MP4 (test pattern and a tone, a keyframe every 2 s) of the given size, to upload. */
export function makeVideo(fileName: string, size: "1280x720" | "640x360"): string {
  const file = scratchFile(fileName);
  // prettier-ignore
  execFileSync(process.env.FFMPEG_PATH ?? "ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=${size}:rate=30:duration=8`,
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
    "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "3M", "-pix_fmt", "yuv420p", "-g", "60",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ]);
  return file;
}
