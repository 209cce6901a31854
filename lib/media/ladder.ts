import path from "node:path";
import type { Profile } from "@/lib/streams/schema";
import { fitFilter } from "./fit";

/**
 * The live transcoder's ffmpeg arguments: one process reads the broadcast and
 * writes every rendition as HLS: the source (copied when it is H.264) as v0 and
 * one x264 encode per profile as v1…, keyframes forced every segment so all
 * renditions cut at the same instants. The master playlist is written by the
 * media node from probes of the first segments (ffmpeg's own lacks the copied
 * variant's CODECS and RESOLUTION).
 */
export interface LadderInput {
  /** The broadcast as FLV (a Feed's input). */
  input: string;
  outDir: string;
  profiles: Profile[];
  segmentS: number;
  sourceIsH264: boolean;
  audio: "aac" | "other" | "none";
  /** Source bitrate when known, for the copied variant's BANDWIDTH. */
  sourceKbps?: number;
}

export const variantDir = (index: number) => `v${index}`;

/**
 * A reader's input ends when the publisher leaves, and it ends by itself with a
 * clean trailer (final segments and playlists written): better than killing it
 * mid-write, after READER_DRAIN_MS. The read timeout covers a media node that hangs.
 */
const READ_TIMEOUT_US = "2000000";
export const READER_DRAIN_MS = 5000;
const readInput = (input: string) => ["-rw_timeout", READ_TIMEOUT_US, "-f", "flv", "-i", input];

export function ladderArgs(l: LadderInput): string[] {
  const n = l.profiles.length;
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
  args.push("-map", "0:v:0");
  l.profiles.forEach((_, i) => args.push("-map", `[o${i}]`));
  if (hasAudio) for (let i = 0; i <= n; i++) args.push("-map", "0:a:0");

  if (l.sourceIsH264) {
    args.push("-c:v:0", "copy", "-b:v:0", `${l.sourceKbps ?? 3000}k`);
  } else {
    args.push("-c:v:0", "libx264", "-preset:v:0", "veryfast", "-tune:v:0", "zerolatency", "-pix_fmt:v:0", "yuv420p");
  }
  l.profiles.forEach((p, i) => {
    const v = `v:${i + 1}`;
    args.push(`-c:${v}`, "libx264", `-preset:${v}`, "veryfast", `-tune:${v}`, "zerolatency", `-pix_fmt:${v}`, "yuv420p");
    args.push(`-b:${v}`, String(p.bitrate), `-maxrate:${v}`, String(Math.round(p.bitrate * 1.1)), `-bufsize:${v}`, String(p.bitrate * 2));
  });
  if (n > 0 || !l.sourceIsH264) args.push(...keyframes, "-sc_threshold", "0");
  if (hasAudio) args.push(...(l.audio === "aac" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "128k"]));

  const streamMap = Array.from({ length: n + 1 }, (_, i) => `v:${i}${hasAudio ? `,a:${i}` : ""},name:${variantDir(i)}`).join(" ");
  args.push(
    "-f", "hls",
    "-hls_time", String(l.segmentS),
    "-hls_list_size", "6",
    // Each segment's wall-clock start: players show it, clips are asked in it (Unix ms), the DVR keeps it.
    "-hls_flags", "delete_segments+independent_segments+temp_file+omit_endlist+program_date_time",
    "-master_pl_name", "ffmpeg-master.m3u8",
    "-var_stream_map", streamMap,
    "-hls_segment_filename", path.join(l.outDir, "%v", "seg_%05d.ts"),
    path.join(l.outDir, "%v", "index.m3u8"),
  );
  return args;
}

/** The copy-only recorder: every segment of the broadcast, appended across reconnects. */
export function recorderArgs(input: string, dir: string, segmentS: number): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostats",
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
