// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { ffmpeg } from "@/lib/av/ffmpeg";
import { ffprobePath, probe, type ProbeStream } from "@/lib/av/probe";

const exec = promisify(execFile);

/**
 * The smart cut: a clip that starts and ends on the asked frames without
 * re-encoding all of it. The whole GOPs inside the range are copied as they are;
 * only the partial GOPs at its edges are re-encoded (closely matching the source's
 * H.264 profile, near-lossless); the pieces are joined as MPEG-TS (every piece
 * carries its parameter sets in-band) and muxed with the audio, re-encoded over the
 * exact range (cheap, and sample-accurate), into an mp4.
 *
 * Everything works on a local "window": a copy (no re-encode) of whole GOPs of the
 * source around the range, so each ffmpeg pass below reads only that.
 */

/** Where a window comes from: the store's HLS segments of a session, or an asset's source file. */
export type WindowSource =
  | { kind: "segments"; segments: { input: string; duration: number }[] }
  | { kind: "file"; input: string; fromS: number; toS: number };

/**
 * Copies the source around the range into `file` (MPEG-TS, whole GOPs, starting on a
 * keyframe) and answers where the source's time 0 falls on the window's timeline.
 * Segments are laid one after the other from the first one's start; a file keeps its
 * own timestamps (-copyts), its window starting at the keyframe before `fromS`.
 */
export async function makeWindow(source: WindowSource, file: string): Promise<{ originS: number }> {
  const muxer = ["-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-muxdelay", "0", "-muxpreload", "0", "-f", "mpegts", file];
  if (source.kind === "segments") {
    const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const list = ["ffconcat version 1.0", ...source.segments.flatMap((s) => [`file ${quote(s.input)}`, `duration ${s.duration.toFixed(6)}`])];
    const listFile = `${file}.ffconcat`;
    await fs.writeFile(listFile, list.join("\n") + "\n");
    await ffmpeg(["-f", "concat", "-safe", "0", "-protocol_whitelist", "file,http,https,tcp,tls,crypto", "-i", listFile, ...muxer]);
    return { originS: await startTime(file) };
  }
  // A second past the end: frames before the end may refer to frames after it (B-frames).
  await ffmpeg(["-copyts", "-ss", source.fromS.toFixed(6), "-i", source.input, "-to", (source.toS + 1).toFixed(6), ...muxer]);
  // The window's first keyframe is the source's last keyframe at or before fromS; their times
  // differ by the source's start and by how an mp4's edit list shifted its first frames.
  const [sourceKeys, windowFrames] = await Promise.all([
    videoFrames(source.input, `${Math.max(0, source.fromS - 60).toFixed(3)}%${(source.fromS + 1).toFixed(3)}`),
    videoFrames(file),
  ]);
  const sourceStart = await startTime(source.input);
  const key = sourceKeys.filter((f) => f.key && f.pts - sourceStart <= source.fromS + 0.0005).pop();
  const windowKey = windowFrames.find((f) => f.key);
  if (!key || !windowKey) throw new Error("no keyframe before the start of the range");
  return { originS: windowKey.pts - (key.pts - sourceStart) };
}

async function startTime(input: string): Promise<number> {
  const info = await probe(input);
  return Number((info.format as { start_time?: string }).start_time ?? 0);
}

interface Frame {
  pts: number;
  key: boolean;
}

export interface CutResult {
  /** Seconds of video in the clip: its frames times their durations. */
  duration: number;
  frames: number;
  reencodedFrames: number;
}

/**
 * Cuts [fromS, toS) of the window (times on the window's own timeline, as ffprobe
 * shows them) into an mp4. The clip's first frame is the one shown nearest to
 * `fromS`, its last the one before the frame nearest to `toS`: the clip lasts the
 * asked time within one frame.
 */
export async function cutWindow(window: string, fromS: number, toS: number, out: string): Promise<CutResult> {
  const work = path.dirname(out);
  const info = await probe(window);
  const video = info.streams.find((s) => s.codec_type === "video");
  const hasAudio = info.streams.some((s) => s.codec_type === "audio");
  if (!video) throw new Error("the source has no video");
  const windowStart = Number((info.format as { start_time?: string }).start_time ?? 0);
  const frames = await videoFrames(window);
  if (frames.length < 2) throw new Error("the source has no frames in this range");
  const frameS = frameDuration(frames);

  const first = frames.findIndex((f) => f.pts >= fromS - frameS / 2);
  let end = frames.findIndex((f) => f.pts >= toS - frameS / 2);
  if (end < 0) end = frames.length;
  if (first < 0 || end <= first) throw new Error("the range holds no frame of the source");
  const ptsAt = (i: number) => (i < frames.length ? frames[i].pts : frames[frames.length - 1].pts + frameS);

  // Whole GOPs: from the first keyframe at or after the first frame to the last keyframe at or before the end.
  let copyFrom = -1;
  for (let i = first; i < end; i++) if (frames[i].key) { copyFrom = i; break; }
  let copyTo = end === frames.length ? end : -1;
  if (copyTo < 0) for (let i = end; i > copyFrom; i--) if (frames[i].key) { copyTo = i; break; }
  const whole = copyFrom >= 0 && copyTo > copyFrom;
  // The window cut (copied) at those keyframes, up to the keyframe after the end: each part starts on a keyframe
  // and is decoded from there, never sought into (a seek into MPEG-TS may land between keyframes).
  const limit = frames.findIndex((f, i) => i >= end && f.key);
  const splits = whole ? [copyFrom, copyTo].filter((i) => i > 0 && i < (limit < 0 ? frames.length : limit)) : [];
  const parts = await splitAtKeyframes(window, splits, limit < 0 ? undefined : limit, work);
  const partAt = (frame: number) => {
    const i = splits.filter((s) => s <= frame).length;
    return { file: parts[i], startFrame: i === 0 ? 0 : splits[i - 1] };
  };
  const pieces: { file: string; from: number; to: number }[] = [];
  const reencode = async (from: number, to: number) => {
    const part = partAt(from);
    const file = path.join(work, `piece-${pieces.length}.ts`);
    pieces.push({ file, from, to });
    await encode(part.file, from - part.startFrame, to - from, video, file);
  };
  if (!whole) await reencode(first, end);
  else {
    if (first < copyFrom) await reencode(first, copyFrom);
    pieces.push({ file: partAt(copyFrom).file, from: copyFrom, to: copyTo });
    if (copyTo < end) await reencode(copyTo, end);
  }

  const duration = ptsAt(end) - ptsAt(first);
  const list = ["ffconcat version 1.0", ...pieces.flatMap((p) => [`file '${path.basename(p.file)}'`, `duration ${(ptsAt(p.to) - ptsAt(p.from)).toFixed(6)}`])];
  const listFile = path.join(work, "pieces.ffconcat");
  await fs.writeFile(listFile, list.join("\n") + "\n");
  const audioArgs: string[] = [];
  if (hasAudio) {
    const audio = path.join(work, "audio.m4a");
    await ffmpeg(["-ss", (ptsAt(first) - windowStart).toFixed(6), "-i", window, "-t", duration.toFixed(6), "-map", "0:a:0", "-c:a", "aac", "-b:a", "128k", audio]);
    audioArgs.push("-i", audio, "-map", "1:a:0");
  }
  await ffmpeg(["-f", "concat", "-safe", "0", "-i", listFile, ...audioArgs, "-map", "0:v:0", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", out]);
  const reencodedFrames = pieces.filter((p) => !whole || p.from !== copyFrom).reduce((n, p) => n + p.to - p.from, 0);
  return { duration, frames: end - first, reencodedFrames };
}

/** The window's video frames in presentation order, with their keyframe flags (from packets: no decoding). */
async function videoFrames(file: string, interval?: string): Promise<Frame[]> {
  const only = interval ? ["-read_intervals", interval] : [];
  const { stdout } = await exec(ffprobePath(), ["-v", "error", ...only, "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", file], {
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  return stdout
    .split("\n")
    .map((line) => line.split(","))
    .filter(([pts]) => pts && pts !== "N/A")
    .map(([pts, flags]) => ({ pts: Number(pts), key: flags.startsWith("K") }))
    .sort((a, b) => a.pts - b.pts);
}

/** The usual gap between frames (the median: a variable rate's odd gap does not count). */
function frameDuration(frames: Frame[]): number {
  const gaps = frames.slice(1).map((f, i) => f.pts - frames[i].pts).filter((g) => g > 0).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 1 / 30;
}

const X264_PROFILES: Record<string, string> = { Baseline: "baseline", "Constrained Baseline": "baseline", Main: "main", High: "high" };

/** Re-encodes `count` frames of a part from its frame `skip` (decoded from the part's first keyframe). */
async function encode(part: string, skip: number, count: number, video: ProbeStream, out: string) {
  const profile = video.codec_name === "h264" ? X264_PROFILES[video.profile ?? ""] : undefined;
  await ffmpeg([
    "-i", part, "-map", "0:v:0",
    ...(skip > 0 ? ["-vf", `trim=start_frame=${skip}`] : []),
    "-frames:v", String(count), "-vsync", "passthrough",
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-pix_fmt", "yuv420p",
    ...(profile ? ["-profile:v", profile] : []),
    "-f", "mpegts", out,
  ]);
}

/**
 * The window's video copied into parts that start at the given keyframes (frame
 * indexes), up to frame `limit`. Closed GOPs: in decode order, the packets before a
 * keyframe are exactly the frames shown before it.
 */
async function splitAtKeyframes(window: string, splits: number[], limit: number | undefined, work: string): Promise<string[]> {
  const pattern = path.join(work, "part-%d.ts");
  await ffmpeg([
    "-i", window, "-map", "0:v:0", "-c", "copy",
    ...(limit !== undefined ? ["-frames:v", String(limit)] : []),
    "-f", "segment", "-segment_format", "mpegts",
    ...(splits.length ? ["-segment_frames", splits.join(",")] : ["-segment_time", "1000000"]),
    pattern,
  ]);
  return Array.from({ length: splits.length + 1 }, (_, i) => pattern.replace("%d", String(i)));
}
