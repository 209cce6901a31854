// biome-ignore-all format: ffmpeg command lines, each option beside its value
import path from "node:path";
import type { Profile } from "@/lib/streams/schema";
import { fitFilter } from "@/lib/av/fit";

/**
 * The live transcoder's ffmpeg arguments: a process reads the broadcast and
 * writes renditions as HLS: the source (copied when it is H.264) as v0 and
 * one x264 encode per profile as v1…, keyframes forced every segment so all
 * renditions cut at the same instants. The media node runs the source and the
 * profiles in two processes (media-node/live-ladder.ts), so that profiles can be
 * dropped and restarted without touching the source. The master playlist is
 * written by the media node from probes of the first segments (ffmpeg's own
 * lacks the copied variant's CODECS and RESOLUTION).
 */
export interface LadderInput {
  /** The broadcast as FLV (a Feed's input). */
  input: string;
  outDir: string;
  profiles: Profile[];
  /** Whether this process writes the source (v0); default true. */
  source?: boolean;
  /** Each profile's variant number (folder v<n>), when not 1…n: a profile keeps its number when others are dropped. */
  variants?: number[];
  /**
   * Continue the playlists already in outDir (a restart): their numbering goes on after a
   * discontinuity; a variant without one starts at this segment number (never a name used before).
   */
  resumeAt?: number;
  segmentS: number;
  sourceIsH264: boolean;
  audio: "aac" | "other" | "none";
  /** Source bitrate when known, for the copied variant's BANDWIDTH. */
  sourceKbps?: number;
}

export const variantDir = (index: number) => `v${index}`;

/**
 * A reader's input ends when the publisher leaves, and it ends by itself with a
 * clean trailer (final segments and playlists written), once it has worked through
 * what it was sent (media-node/live-ladder.ts drains it). The read timeout covers a
 * media node that hangs. It is longer than the media node's own stall limit (4 s
 * without data cuts the publisher, which ends the input cleanly): a timeout strikes
 * in the middle of a tag, and ffmpeg then ends as if the input had (a pause of a busy
 * machine or a bursty uplink cost the broadcast everything its reader had yet to read).
 */
const READ_TIMEOUT_US = "10000000";
const readInput = (input: string) => ["-rw_timeout", READ_TIMEOUT_US, "-f", "flv", "-i", input];

export function ladderArgs(l: LadderInput): string[] {
  const n = l.profiles.length;
  const source = l.source ?? true;
  const variantNames = [...(source ? [variantDir(0)] : []), ...l.profiles.map((_, i) => variantDir(l.variants?.[i] ?? i + 1))];
  const hasAudio = l.audio !== "none";
  const keyframes = ["-force_key_frames", `expr:gte(t,n_forced*${l.segmentS})`];
  const args = ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-stats_period", "1"];
  // Not +nobuffer: it drops what stream analysis read, the first seconds of the broadcast.
  args.push("-fflags", "+genpts", ...readInput(l.input));

  if (n > 0) {
    // Never larger than the source nor above its frame rate, whatever the profile asks.
    const chains = l.profiles.map((p, i) => `[s${i}]${fitFilter(p)}[o${i}]`);
    const split = `[0:v]split=${n}${l.profiles.map((_, i) => `[s${i}]`).join("")}`;
    args.push("-filter_complex", [split, ...chains].join(";"));
  }
  if (source) args.push("-map", "0:v:0");
  l.profiles.forEach((_, i) => args.push("-map", `[o${i}]`));
  if (hasAudio) for (let i = 0; i < variantNames.length; i++) args.push("-map", "0:a:0");

  if (source && l.sourceIsH264) {
    args.push("-c:v:0", "copy", "-b:v:0", `${l.sourceKbps ?? 3000}k`);
  } else if (source) {
    args.push("-c:v:0", "libx264", "-preset:v:0", "veryfast", "-tune:v:0", "zerolatency", "-pix_fmt:v:0", "yuv420p");
  }
  const first = source ? 1 : 0;
  l.profiles.forEach((p, i) => {
    const v = `v:${i + first}`;
    args.push(`-c:${v}`, "libx264", `-preset:${v}`, "veryfast", `-tune:${v}`, "zerolatency", `-pix_fmt:${v}`, "yuv420p");
    args.push(`-b:${v}`, String(p.bitrate), `-maxrate:${v}`, String(Math.round(p.bitrate * 1.1)), `-bufsize:${v}`, String(p.bitrate * 2));
  });
  if (n > 0 || (source && !l.sourceIsH264)) args.push(...keyframes, "-sc_threshold", "0");
  if (hasAudio) args.push(...(l.audio === "aac" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "128k"]));

  const streamMap = variantNames.map((name, i) => `v:${i}${hasAudio ? `,a:${i}` : ""},name:${name}`).join(" ");
  const resume = l.resumeAt !== undefined;
  args.push(
    "-f", "hls",
    "-hls_time", String(l.segmentS),
    "-hls_list_size", "6",
    // Each segment's wall-clock start: players show it, clips are asked in it (Unix ms), the DVR keeps it.
    "-hls_flags", `delete_segments+independent_segments+temp_file+omit_endlist+program_date_time${resume ? "+append_list" : ""}`,
    ...(resume ? ["-start_number", String(l.resumeAt)] : []),
    "-var_stream_map", streamMap,
    "-hls_segment_filename", path.join(l.outDir, "%v", "seg_%05d.ts"),
    path.join(l.outDir, "%v", "index.m3u8"),
  );
  return args;
}

/** The copy-only recorder: every segment of the broadcast, appended across reconnects. */
export function recorderArgs(input: string, dir: string, segmentS: number): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-stats_period", "1",
    ...readInput(input),
    // Video and audio only: a mapped data stream (FLV script data) stalls the muxer's interleaving,
    // and the recording's segments would then appear only when the broadcast ends.
    "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy",
    "-f", "hls", "-hls_time", String(segmentS), "-hls_list_size", "0", "-hls_playlist_type", "event",
    "-hls_flags", "append_list+omit_endlist+temp_file+program_date_time",
    "-hls_segment_filename", path.join(dir, "seg_%05d.ts"),
    path.join(dir, "live.m3u8"),
  ];
}

/**
 * A multistream push of one rendition to a target, at the URL and with the
 * options of its checked route (lib/targets/connect.ts).
 */
export function pushArgs(
  input: string,
  target: { videoOnly: boolean },
  route: { url: string; options: string[] },
  profile: Profile | undefined,
  audio: "aac" | "other" | "none",
): string[] {
  const args = ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-stats_period", "1", ...readInput(input)];
  args.push("-map", "0:v:0");
  if (!target.videoOnly && audio !== "none") args.push("-map", "0:a:0");
  if (profile) {
    args.push("-vf", fitFilter(profile));
    args.push("-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-b:v", String(profile.bitrate), "-maxrate", String(Math.round(profile.bitrate * 1.1)), "-bufsize", String(profile.bitrate * 2));
    // A keyframe every 2 s, whatever frame rate the source allowed.
    args.push("-force_key_frames", "expr:gte(t,n_forced*2)");
  } else {
    args.push("-c:v", "copy");
  }
  if (!target.videoOnly && audio !== "none") args.push(...(audio === "aac" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "128k"]));
  const format = route.url.startsWith("srt://") ? "mpegts" : "flv";
  args.push("-f", format, ...route.options, route.url);
  return args;
}
