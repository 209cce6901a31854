import type { TranscodeProfile, VideoSpec } from "./schema";

/**
 * The VOD ladder: which renditions an asset gets and how its source is cut into
 * chunks for them. Pure functions, so the rules are testable without ffmpeg.
 */

export interface RenditionPlan {
  name: string;
  width: number;
  height: number;
  /** Bits per second. */
  bitrate: number;
  fps: number;
  quality?: number;
  /** Seconds between keyframes; default: one per segment. */
  gop?: number;
  h264Profile?: TranscodeProfile["profile"];
}

/**
 * Apple's HLS authoring guidance (H.264, 16:9, 30 fps): 1920x1080 at 6000 kb/s,
 * 1280x720 at 3000, 640x360 at 365; 854x480 is not in its table and gets 1500,
 * between its 768x432 (1100) and 960x540 (2000) by pixel count.
 */
const DEFAULT_RUNGS = [
  { height: 1080, bitrate: 6_000_000 },
  { height: 720, bitrate: 3_000_000 },
  { height: 480, bitrate: 1_500_000 },
  { height: 360, bitrate: 365_000 },
] as const;

/** Above 30 fps (Apple: 60 fps rungs carry about half as much again). */
const HIGH_FPS_FACTOR = 1.5;
/** Rungs shorter than 720 lines never run above 30 fps: the bits go further in picture. */
const LOW_RUNG_MAX_FPS = 30;

export interface SourceVideo {
  width: number;
  height: number;
  fps?: number;
}

export function sourceVideo(spec: VideoSpec | null | undefined): SourceVideo | undefined {
  const video = spec?.tracks.find((t) => t.type === "video");
  return video ? { width: video.width, height: video.height, fps: video.fps } : undefined;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The default ladder: every rung at or below the source (by its short side, so a
 * portrait 1080x1920 phone video gets "1080p" too), never upscaled nor above the
 * source's frame rate. A source shorter than the lowest rung gets one rendition at its size.
 */
export function defaultLadder(source: SourceVideo): RenditionPlan[] {
  const portrait = source.height > source.width;
  const short = Math.min(source.width, source.height);
  const long = Math.max(source.width, source.height);
  const fpsOf = (lines: number) => Math.min(source.fps ?? 30, lines >= 720 ? Infinity : LOW_RUNG_MAX_FPS);
  const rungs = DEFAULT_RUNGS.filter((r) => r.height <= short);
  const chosen = rungs.length ? rungs : [{ height: even(short), bitrate: DEFAULT_RUNGS.at(-1)!.bitrate }];
  return chosen.map((r) => {
    const along = even((long * r.height) / short);
    const fps = round3(fpsOf(r.height));
    return {
      name: `${r.height}p`,
      width: portrait ? r.height : along,
      height: portrait ? along : r.height,
      bitrate: Math.round(r.bitrate * (fps > 30.5 ? HIGH_FPS_FACTOR : 1)),
      fps,
    };
  });
}

/**
 * Profiles as asked (Livepeer's shape): the picture keeps the source's aspect, fitting
 * inside the width and height given (a missing one follows from the other), and the
 * frame rate is never above the source's.
 */
export function profileLadder(profiles: TranscodeProfile[], source: SourceVideo): RenditionPlan[] {
  const plans = profiles.map((p) => {
    const boxW = p.width ?? (p.height ? Infinity : source.width);
    const boxH = p.height ?? (p.width ? Infinity : source.height);
    const scale = Math.min(boxW / source.width, boxH / source.height);
    const width = source.width * scale;
    const height = source.height * scale;
    const asked = p.fps ? p.fps / (p.fpsDen ?? 1) : undefined;
    const fps = round3(Math.min(asked ?? source.fps ?? 30, source.fps ?? Infinity));
    return {
      name: p.name ?? `${even(height)}p`,
      width: even(width),
      height: even(height),
      bitrate: p.bitrate,
      fps,
      ...(p.quality !== undefined && { quality: p.quality }),
      ...(p.gop && { gop: Number(p.gop) }),
      ...(p.profile && { h264Profile: p.profile }),
    };
  });
  return plans.sort((a, b) => b.height - a.height || b.bitrate - a.bitrate);
}

export interface ChunkPlan {
  index: number;
  start: number;
  duration: number;
}

/**
 * Cuts [0, duration) into chunks of `chunkS` seconds (a whole number of segments, so
 * every segment but each chunk's last has the same length in every rendition). A short
 * tail joins the chunk before it rather than standing alone.
 */
export function chunkPlan(duration: number, chunkS: number): ChunkPlan[] {
  if (!(duration > 0)) return [{ index: 0, start: 0, duration: 0 }];
  const count = Math.max(1, Math.round(duration / chunkS));
  return Array.from({ length: count }, (_, index) => {
    const start = index * chunkS;
    const end = index === count - 1 ? duration : start + chunkS;
    return { index, start, duration: round3(end - start) };
  });
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
