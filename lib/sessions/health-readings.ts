import { lagLimitS } from "@/lib/media-node-protocol";
import type { Profile } from "@/lib/streams/schema";
import type { HealthIssue, HealthSample } from "./schema";

/** Heartbeats (about one a second) fold into buckets this wide for a broadcast's first hour… */
export const HEALTH_BUCKET_MS = 5_000;
const FIRST_SPAN_MS = 3600_000;

/**
 * …then twice as wide each time the broadcast's age doubles (10 s in its second hour, 20 s up to
 * 4 h, 40 s up to 8 h…): about 720 rows for the first hour and 360 more per doubling, so a week
 * of broadcast keeps some 3,400 rows. Widths are powers of two of 5 s, so buckets stay aligned.
 */
export function healthBucketMs(ageMs: number): number {
  if (ageMs < FIRST_SPAN_MS) return HEALTH_BUCKET_MS;
  return HEALTH_BUCKET_MS * 2 ** (Math.floor(Math.log2(ageMs / FIRST_SPAN_MS)) + 1);
}

/** Players start and switch renditions at keyframes: encoders are told to send one every 2 s. */
export const MAX_KEYFRAME_INTERVAL_S = 2;
/** Rounding in the measurement (timestamps in ms over a 2 s GOP). */
const KEYFRAME_TOLERANCE_S = 0.05;
/** A keyframe interval players and renditions suffer from. */
export const keyframesTooSlow = (intervalS: number) => intervalS > MAX_KEYFRAME_INTERVAL_S + KEYFRAME_TOLERANCE_S;
/** Intervals that differ by more than this make segments of uneven length. */
const KEYFRAME_SPREAD_S = 1;
/** A frame rate this far below the broadcast's usual is a drop the viewer sees. */
const FPS_DROP_RATIO = 0.8;
/** The renditions cannot look better than their source: below this share of the top rung, the ladder is wasted. */
const BITRATE_LADDER_RATIO = 0.5;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const oneDecimal = (n: number) => +n.toFixed(1);
const minutesIn = (at: number, startedAt: number) => {
  const minutes = Math.round((at - startedAt) / 60_000);
  return minutes < 1 ? "from the start" : `from ${minutes} min in`;
};

/** "480p", "480p and 360p", "720p, 480p and 360p" */
export const namesInWords = (names: string[]) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/**
 * Whether the live output is behind its encoder: renditions dropped, or trailing by more than
 * the media node tolerates at the shortest segments (the node's own limit grows with them).
 */
export const transcodingBehind = (health: { lagS?: number; droppedRenditions?: string[] }) =>
  !!health.droppedRenditions?.length || (health.lagS ?? 0) > lagLimitS(1);

/**
 * The readings of a broadcast the encoder should fix, each with a short hint in plain words,
 * and whether the media node kept up with it (`segmentS`: the live segments' length).
 */
export function diagnoseHealth(samples: HealthSample[], profiles: Profile[], startedAt: number, segmentS: number): HealthIssue[] {
  const issues: HealthIssue[] = [];
  const keyframes = samples.filter((s) => s.keyframeIntervalS !== undefined);
  const slow = keyframes.find((s) => keyframesTooSlow(s.keyframeIntervalS!));
  if (slow) {
    const longest = Math.max(...keyframes.map((s) => s.keyframeIntervalS!));
    issues.push({
      reading: "keyframeInterval",
      at: slow.at,
      message: `Keyframes came up to ${oneDecimal(longest)} s apart, ${minutesIn(slow.at, startedAt)}: playback starts slowly and renditions lag. Set your encoder’s keyframe interval to ${MAX_KEYFRAME_INTERVAL_S} s (OBS: Settings → Output → Keyframe Interval).`,
    });
  } else if (keyframes.length >= 3) {
    const values = keyframes.map((s) => s.keyframeIntervalS!);
    const [low, high] = [Math.min(...values), Math.max(...values)];
    if (high - low > KEYFRAME_SPREAD_S) {
      issues.push({
        reading: "keyframeInterval",
        at: keyframes.find((s) => s.keyframeIntervalS === high)!.at,
        message: `Keyframes came irregularly (${oneDecimal(low)} to ${oneDecimal(high)} s apart): segments come out uneven. Set a fixed keyframe interval of ${MAX_KEYFRAME_INTERVAL_S} s and turn off scene-cut keyframes.`,
      });
    }
  }

  const rated = samples.filter((s) => s.fps !== undefined);
  if (rated.length >= 3) {
    const usual = median(rated.map((s) => s.fps!));
    const drop = rated.find((s) => s.fps! < usual * FPS_DROP_RATIO);
    if (drop) {
      const lowest = Math.min(...rated.map((s) => s.fps!));
      issues.push({
        reading: "fps",
        at: drop.at,
        message: `The frame rate dropped to ${oneDecimal(lowest)} fps (usually ${oneDecimal(usual)}), ${minutesIn(drop.at, startedAt)}: the encoder’s computer or its upload cannot keep up. Use a faster encoder preset, a lower resolution, or a lower bitrate.`,
      });
    }
  }

  const sent = samples.filter((s) => s.bitrateKbps !== undefined);
  const top = profiles.reduce<Profile | undefined>((best, p) => (!best || p.bitrate > best.bitrate ? p : best), undefined);
  if (top && sent.length >= 3) {
    const usual = median(sent.map((s) => s.bitrateKbps!));
    const topKbps = Math.round(top.bitrate / 1000);
    if (usual < topKbps * BITRATE_LADDER_RATIO) {
      issues.push({
        reading: "bitrate",
        at: sent.find((s) => s.bitrateKbps! < topKbps * BITRATE_LADDER_RATIO)!.at,
        message: `Your encoder sends about ${Math.round(usual)} kbps, far below the top rendition (${top.name}, ${topKbps} kbps), which cannot look better than its source. Raise the encoder’s bitrate to at least ${topKbps} kbps, or lower the renditions.`,
      });
    }
  }

  const transcoding = transcodingIssue(samples, startedAt, segmentS);
  if (transcoding) issues.push(transcoding);
  return issues;
}

/**
 * Renditions the media node dropped to keep the stream live, or a live output that trailed the
 * encoder: the node (or the machine it shares) is overloaded, nothing the encoder can fix.
 */
function transcodingIssue(samples: HealthSample[], startedAt: number, segmentS: number): HealthIssue | undefined {
  const droppedAt = samples.find((s) => s.droppedRenditions?.length);
  if (droppedAt) {
    const dropped = [...new Set(samples.flatMap((s) => s.droppedRenditions ?? []))];
    return {
      reading: "transcoding",
      at: droppedAt.at,
      message: `Transcoding fell behind real time ${minutesIn(droppedAt.at, startedAt)}: ${namesInWords(dropped)} dropped to keep the stream live (the source still plays). The media node is overloaded: give it more CPU, run fewer renditions, or add a media node.`,
    };
  }
  const behind = samples.find((s) => s.lagS !== undefined && s.lagS > lagLimitS(segmentS));
  if (!behind) return undefined;
  const longest = Math.max(...samples.map((s) => s.lagS ?? 0));
  return {
    reading: "transcoding",
    at: behind.at,
    message: `The live stream trailed your encoder by up to ${Math.round(longest)} s ${minutesIn(behind.at, startedAt)}: the media node could not keep up in real time. Give it more CPU or add a media node.`,
  };
}
