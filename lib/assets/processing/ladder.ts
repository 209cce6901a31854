import { fitToSource, type SourceVideo } from "@/lib/av/fit";
import type { TranscodeProfile, VideoSpec } from "../schema";

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

export function sourceVideo(spec: VideoSpec | null | undefined): SourceVideo | undefined {
  const video = spec?.tracks.find((t) => t.type === "video");
  return video ? { width: video.width, height: video.height, fps: video.fps } : undefined;
}

/**
 * The default ladder: every rung at or below the source (by its short side, so a
 * portrait 1080x1920 phone video gets "1080p" too), fitted to the source by the one
 * rule (lib/av/fit.ts). A source shorter than the lowest rung gets one rendition
 * at its size.
 */
export function defaultLadder(source: SourceVideo): RenditionPlan[] {
  const short = Math.min(source.width, source.height);
  const rungs = DEFAULT_RUNGS.filter((r) => r.height <= short);
  const chosen = rungs.length ? rungs : [{ height: short, bitrate: DEFAULT_RUNGS.at(-1)!.bitrate }];
  return chosen.map((r) => {
    const lines = source.height > source.width ? { width: r.height } : { height: r.height };
    const fitted = fitToSource({ ...lines, fps: r.height >= 720 ? undefined : LOW_RUNG_MAX_FPS }, source);
    const fps = round3(fitted.fps ?? 30);
    return {
      name: `${Math.min(fitted.width, fitted.height)}p`,
      width: fitted.width,
      height: fitted.height,
      bitrate: Math.round(r.bitrate * (fps > 30.5 ? HIGH_FPS_FACTOR : 1)),
      fps,
    };
  });
}

/**
 * An unnamed profile's name: the height it asks for at the source's aspect, before the
 * source caps it (profiles named apart stay apart when a small source makes them alike).
 */
function askedName(p: TranscodeProfile, source: SourceVideo): string {
  const scale = Math.min((p.width ?? Infinity) / source.width, (p.height ?? Infinity) / source.height);
  return `${Math.max(2, Math.round((source.height * (Number.isFinite(scale) ? scale : 1)) / 2) * 2)}p`;
}

/** Profiles as asked (Livepeer's shape), each fitted to the source by the one rule (lib/av/fit.ts). */
export function profileLadder(profiles: TranscodeProfile[], source: SourceVideo): RenditionPlan[] {
  const plans = profiles.map((p) => {
    const { width, height, fps } = fitToSource({ width: p.width, height: p.height, fps: p.fps && p.fps / (p.fpsDen ?? 1) }, source);
    return {
      name: p.name ?? askedName(p, source),
      width,
      height,
      bitrate: p.bitrate,
      fps: round3(fps ?? 30),
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
