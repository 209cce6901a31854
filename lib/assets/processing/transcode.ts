// biome-ignore-all format: ffmpeg command lines, each option beside its value
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { config } from "@/lib/config";
import { ffmpeg } from "@/lib/av/ffmpeg";
import { backgroundTranscodeSlots, machineId } from "@/lib/av/machine";
import { liveWorkOn } from "@/lib/live/nodes";
import { codecString, mediaPlaylist, parseMediaPlaylist } from "@/lib/av/hls";
import { probe } from "@/lib/av/probe";
import { inScratch } from "@/lib/scratch";
import { objects } from "@/lib/storage";
import { mediaBase } from "./base";
import { mp4Key, renditionKey, thumbnailsPrefix } from "../keys";
import { claimChunk, finishChunk, finishedUnpublished, renditionChunks, updateRendition, type ChunkJob } from "./renditions";
import type { VideoSpec } from "../schema";
import { assetById, renditionsOf, updateAsset, type RenditionRow } from "../service";

/**
 * The ffmpeg side of VOD renditions: one chunk of one rendition at a time, read
 * straight from the object store (a file, or a pre-signed URL ffmpeg seeks with
 * range requests) and written back as HLS segments; then the rendition's playlist,
 * its static MP4, and the seek-preview thumbnails.
 */

/** Every rendition's segments: 4 s, Apple's guidance of about 6 s traded for quicker starts. */
export const SEGMENT_S = 4;
/** Renditions at most this tall (short side) get a static MP4 when asked. */
const STATIC_MP4_MAX_LINES = 720;
const WORKER = `${os.hostname()}/${process.pid}`;

/** How long a reading of this machine's live work stands. */
const SLOTS_TTL_MS = 2000;
let slots: { value: number; at: number } | undefined;

/**
 * ffmpeg transcodes this process runs at once: TRANSCODE_CONCURRENCY, fewer while media
 * nodes on this machine have broadcasts (lib/av/machine.ts), as their heartbeats in
 * PostgreSQL say. The built-in driver claims no more chunk jobs than that, and under an
 * Inngest server, which knows nothing of machines, calls beyond it wait here.
 */
export async function transcodeSlots(): Promise<number> {
  if (slots && Date.now() - slots.at < SLOTS_TTL_MS) return slots.value;
  const live = await liveWorkOn(machineId()).catch((err) => {
    console.error("[transcode] reading this machine's live work failed:", err.message);
    return { sessions: 0, lagging: 0 };
  });
  slots = { value: backgroundTranscodeSlots(config().TRANSCODE_CONCURRENCY, live), at: Date.now() };
  return slots.value;
}

let running = 0;
const waiting: (() => void)[] = [];
export async function withTranscodeSlot<T>(work: () => Promise<T>): Promise<T> {
  while (running >= (await transcodeSlots())) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Transcodes the job's chunk for its rendition and every other rendition of that chunk
 * no job has taken yet, from one decode of the source (decoding a 1080p source costs
 * about as much as encoding its 360p rendition: once per chunk, not once per rendition),
 * and stores their segments. Returns the renditions whose last chunk that was: they are
 * to be published.
 */
export async function transcodeChunk(job: ChunkJob, claimant: string): Promise<{ completed: string[]; encoded: string[] }> {
  // A retry whose attempt finished renditions and died before publishing them publishes them now
  // (a first attempt has done nothing yet: none).
  const unpublished = await finishedUnpublished(job, claimant);
  const batch = await claimChunk(job, claimant);
  const asset = batch && (await assetById(job.assetId));
  const spec = asset?.videoSpec;
  if (!batch?.renditions.length || !asset || !spec) return { completed: unpublished, encoded: [] };
  const { chunk, renditions } = batch;
  const last = chunk.index === Math.max(...renditions.map((r) => r.chunks)) - 1;
  const prefix = `c${String(chunk.index).padStart(4, "0")}_`;

  const segments = await withTranscodeSlot(() =>
    inScratch(`${job.assetId}-${job.index}`, async (dir) => {
      const { input } = await mediaBase(asset);
      // Nobody waits for a ladder: the asset plays already (lib/av/machine.ts, DEFERRED_NICENESS).
      await ffmpeg(chunkArgs({ input, dir, prefix, start: chunk.start, duration: last ? undefined : chunk.duration, renditions, spec }), { deferred: true });
      const stored = new Map<string, { file: string; duration: number; size: number }[]>();
      for (const r of renditions) {
        const listed = parseMediaPlaylist(await fs.promises.readFile(path.join(dir, r.name, "chunk.m3u8"), "utf8"));
        const files = [];
        for (const s of listed) {
          const file = path.join(dir, r.name, s.uri);
          const { size } = await fs.promises.stat(file);
          await objects().write(renditionKey(job.assetId, r.name, s.uri), fs.createReadStream(file), { contentType: "video/mp2t" });
          files.push({ file: s.uri, duration: s.duration, size });
        }
        stored.set(r.name, files);
      }
      return stored;
    }),
  );
  const completed = [...unpublished];
  for (const r of renditions) {
    if (await finishChunk({ ...job, rendition: r.name }, segments.get(r.name)!, WORKER)) completed.push(r.name);
  }
  return { completed, encoded: renditions.map((r) => r.name) };
}

interface ChunkInput {
  /** ffmpeg's arguments opening the asset's base (lib/assets/processing/base.ts): H.264 and AAC. */
  input: string[];
  dir: string;
  prefix: string;
  start: number;
  /** Unset: to the end of the source. */
  duration?: number;
  renditions: RenditionRow[];
  spec: VideoSpec;
}

/**
 * One decode, one scale per rendition, one x264 per rendition, written as HLS into
 * <dir>/<rendition>/. Seeking on the input before decoding is frame-accurate when
 * transcoding, and the output's timestamps are moved back to the chunk's place in the
 * source, so the chunks' segments follow one another in one playlist without
 * discontinuities. Keyframes are forced on the same instants in every rendition (every
 * SEGMENT_S from the chunk's start, which is a multiple of it): the renditions' segments align.
 */
export function chunkArgs(c: ChunkInput): string[] {
  const video = c.spec.tracks.find((t) => t.type === "video");
  const audio = c.spec.tracks.find((t) => t.type === "audio");
  const n = c.renditions.length;
  // The ladder already fitted each size to the source's aspect (lib/assets/processing/ladder.ts).
  const chains = c.renditions.map((r, i) => {
    const fps = !video?.fps || r.fps < video.fps - 0.01 ? `,fps=${r.fps}` : "";
    return `[v${i}]scale=${r.width}:${r.height},setsar=1${fps}[o${i}]`;
  });
  const args = [
    "-ss", c.start.toFixed(3), ...(c.duration !== undefined ? ["-t", c.duration.toFixed(3)] : []),
    ...c.input,
    "-filter_complex", [`[0:v:0]split=${n}${c.renditions.map((_, i) => `[v${i}]`).join("")}`, ...chains].join(";"),
  ];
  c.renditions.forEach((_, i) => args.push("-map", `[o${i}]`));
  if (audio) c.renditions.forEach(() => args.push("-map", "0:a:0"));
  args.push("-c:v", "libx264", "-preset", config().TRANSCODE_PRESET, "-pix_fmt", "yuv420p", "-sc_threshold", "0");
  c.renditions.forEach((r, i) => {
    const v = `v:${i}`;
    args.push(`-profile:${v}`, h264Profile(r.h264Profile));
    if (r.quality !== null) args.push(`-crf:${v}`, String(r.quality), `-maxrate:${v}`, String(r.bitrate), `-bufsize:${v}`, String(r.bitrate * 2));
    else args.push(`-b:${v}`, String(r.bitrate), `-maxrate:${v}`, String(Math.round(r.bitrate * 1.1)), `-bufsize:${v}`, String(r.bitrate * 2));
    args.push(`-force_key_frames:${v}`, `expr:gte(t,n_forced*${r.gop ?? SEGMENT_S})`);
  });
  // The base's AAC is copied: packets cut at the chunk's edges join up again without the gap a fresh encoder's priming leaves.
  if (audio) args.push("-c:a", "copy");
  args.push(
    "-output_ts_offset", c.start.toFixed(3),
    "-f", "hls", "-hls_time", String(SEGMENT_S), "-hls_playlist_type", "vod",
    "-var_stream_map", c.renditions.map((r, i) => `v:${i}${audio ? `,a:${i}` : ""},name:${r.name}`).join(" "),
    "-hls_segment_filename", path.join(c.dir, "%v", `${c.prefix}%03d.ts`),
    path.join(c.dir, "%v", "chunk.m3u8"),
  );
  return args;
}

const h264Profile = (p: string | null) =>
  ({ H264Baseline: "baseline", H264Main: "main", H264ConstrainedHigh: "high" })[p ?? ""] ?? "high";

/**
 * Joins the rendition's chunks into its playlist, measures its bandwidth and codecs
 * for the master playlist, and makes it ready. Returns whether a static MP4 is due.
 */
export async function publishRendition(assetId: string, name: string): Promise<{ mp4: boolean }> {
  const chunks = await renditionChunks(assetId, name);
  const segments = chunks.flatMap((c) => c.segments ?? []);
  if (!segments.length || chunks.some((c) => !c.doneAt)) throw new Error(`rendition ${name} of ${assetId} is not complete`);
  const playlist = mediaPlaylist(segments.map((s) => ({ uri: s.file, duration: s.duration })), { type: "VOD", durationDigits: 6 });
  await objects().write(renditionKey(assetId, name, "index.m3u8"), Readable.from([Buffer.from(playlist)]), { contentType: "application/vnd.apple.mpegurl" });

  const first = await probe(await objects().mediaInput(renditionKey(assetId, name, segments[0].file)));
  const codecs = first.streams.map((s) => codecString(s)).filter(Boolean).join(",");
  const seconds = segments.reduce((n, s) => n + s.duration, 0);
  const bits = segments.reduce((n, s) => n + s.size * 8, 0);
  const peak = Math.max(...segments.filter((s) => s.duration > 0.5).map((s) => (s.size * 8) / s.duration), bits / seconds);
  const asset = await assetById(assetId);
  const rendition = (await renditionsOf(assetId)).find((r) => r.name === name);
  const mp4 = Boolean(asset?.transcode?.staticMp4 && rendition && Math.min(rendition.width, rendition.height) <= STATIC_MP4_MAX_LINES && !rendition.mp4Key);
  // A rendition due an MP4 is ready once that is stored too: "ready" means everything it will have.
  await updateRendition(assetId, name, {
    ...(mp4 ? {} : { phase: "ready" }),
    codecs,
    bandwidth: Math.round(peak),
    averageBandwidth: Math.round(bits / seconds),
    errorMessage: null,
  });
  return { mp4 };
}

/** The rendition's segments as one faststart MP4 (no re-encode), served with range requests. */
export async function storeStaticMp4(assetId: string, name: string): Promise<void> {
  const segments = (await renditionChunks(assetId, name)).flatMap((c) => c.segments ?? []);
  const store = objects();
  await inScratch(`${assetId}-${name}-mp4`, async (dir) => {
    const list = ["ffconcat version 1.0"];
    for (const s of segments) list.push(`file '${await store.mediaInput(renditionKey(assetId, name, s.file))}'`);
    await fs.promises.writeFile(path.join(dir, "list.ffconcat"), list.join("\n") + "\n");
    const mp4 = path.join(dir, "rendition.mp4");
    await ffmpeg([
      "-f", "concat", "-safe", "0", "-protocol_whitelist", "file,http,https,tcp,tls,crypto", "-i", path.join(dir, "list.ffconcat"),
      "-map", "0", "-c", "copy", "-movflags", "+faststart", mp4,
    ]);
    const { size } = await fs.promises.stat(mp4);
    await store.write(mp4Key(assetId, name), fs.createReadStream(mp4), { contentType: "video/mp4" });
    await updateRendition(assetId, name, { phase: "ready", mp4Key: mp4Key(assetId, name), mp4Size: size });
  });
}

/** Seek previews: a tile every few seconds, on sprite sheets of TILE_COLUMNS x TILE_ROWS. */
const TILE_WIDTH = 160;
const TILE_COLUMNS = 10;
const TILE_ROWS = 10;

/** One tile per this many seconds: every 2 s of a short video, at most about 360 tiles for a long one. */
export const thumbnailInterval = (duration: number) => Math.min(30, Math.max(2, Math.ceil(duration / 360)));

/**
 * The WebVTT thumbnail track: sprite sheets made from the source's keyframes only
 * (nothing else is decoded, so it costs a fraction of one rendition), and a VTT
 * cue per tile pointing into them with a media fragment (#xywh=).
 */
export async function storeSeekThumbnails(assetId: string): Promise<void> {
  const asset = await assetById(assetId);
  const spec = asset?.videoSpec;
  const video = spec?.tracks.find((t) => t.type === "video");
  if (!asset || !spec || !video) return;
  const interval = thumbnailInterval(spec.duration);
  const tileHeight = Math.max(2, Math.round((TILE_WIDTH * video.height) / video.width / 2) * 2);
  const prefix = thumbnailsPrefix(assetId);
  const stored = await withTranscodeSlot(() =>
    inScratch(`${assetId}-thumbnails`, async (dir) => {
      // One JPEG per tile first, so the cues name exactly the tiles there are (a keyframe-only
      // decode has none past the last keyframe), then the tiles onto sheets: a cheap second pass.
      const { input } = await mediaBase(asset);
      const tilesOf = async (decode: string[]) => {
        await ffmpeg([
          ...decode, ...input,
          "-map", "0:v:0", "-an", "-vf", `fps=1/${interval},scale=${TILE_WIDTH}:${tileHeight}`,
          "-fps_mode", "vfr", "-q:v", "3", path.join(dir, "tile_%05d.jpg"),
        ], { deferred: true });
        return (await fs.promises.readdir(dir)).filter((f) => f.startsWith("tile_")).length;
      };
      // A video with too few keyframes for a tile (a short one) is decoded whole instead.
      const made = (await tilesOf(["-skip_frame", "nokey"])) || (await tilesOf([]));
      if (!made) return false;
      const tiles = Math.min(Math.ceil(spec.duration / interval), made);
      await ffmpeg([
        "-framerate", "1", "-i", path.join(dir, "tile_%05d.jpg"),
        "-vf", `tile=${TILE_COLUMNS}x${TILE_ROWS}`, "-fps_mode", "vfr", "-q:v", "5", path.join(dir, "sprite_%03d.jpg"),
      ], { deferred: true });
      const sheets = (await fs.promises.readdir(dir)).filter((f) => f.startsWith("sprite_")).sort();
      for (const sheet of sheets) await objects().write(`${prefix}/${sheet}`, fs.createReadStream(path.join(dir, sheet)), { contentType: "image/jpeg" });
      const perSheet = TILE_COLUMNS * TILE_ROWS;
      const cues = ["WEBVTT", ""];
      for (let i = 0; i < tiles; i++) {
        const at = i % perSheet;
        const x = (at % TILE_COLUMNS) * TILE_WIDTH;
        const y = Math.floor(at / TILE_COLUMNS) * tileHeight;
        // The last tile covers the rest of the video.
        const end = i === tiles - 1 ? spec.duration : (i + 1) * interval;
        cues.push(`${vttTime(i * interval)} --> ${vttTime(end)}`, `${sheets[Math.floor(i / perSheet)]}#xywh=${x},${y},${TILE_WIDTH},${tileHeight}`, "");
      }
      await objects().write(`${prefix}/thumbnails.vtt`, Readable.from([Buffer.from(cues.join("\n"))]), { contentType: "text/vtt" });
      return true;
    }),
  );
  if (stored) await updateAsset(assetId, { files: { ...(await assetById(assetId))!.files, thumbnailsVtt: `${prefix}/thumbnails.vtt` } });
}

const vttTime = (s: number) => {
  const ms = Math.round(s * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

