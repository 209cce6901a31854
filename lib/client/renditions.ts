import type { Profile } from "@/lib/streams/schema";

/** The renditions offered with one click on the new-stream form; all are checked by default. */
export const RENDITION_PRESETS: readonly Profile[] = [
  { name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 },
  { name: "480p", width: 854, height: 480, bitrate: 1_600_000, fps: 30 },
  { name: "360p", width: 640, height: 360, bitrate: 800_000, fps: 30 },
];
