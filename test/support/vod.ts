// biome-ignore-all format: ffmpeg command lines, each option beside its value
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Api } from "./client";
import { until } from "./media";

const exec = promisify(execFile);

export const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "castline-vod-"));

const lavfi = (seconds: number, size: string) => [
  // testsrc2 rounds a size to even numbers: testsrc keeps an odd one.
  "-f", "lavfi", "-i", `${/[13579](x|$)/.test(size) ? "testsrc" : "testsrc2"}=size=${size}:rate=30:duration=${seconds}`,
  "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
];

/** What a phone or camera makes, and what the platform must refuse. */
export type MediaKind =
  | "mp4" | "webm" | "hevc" | "audio-only" | "random"
  /** An iPhone's portrait video: HEVC + AAC in a MOV, turned 90° by its display matrix. */
  | "phone-hevc" | "av1" | "mkv-mp3" | "prores" | "no-audio"
  /** HDR10: 10-bit HEVC tagged BT.2020 primaries and PQ (smpte2084) transfer. */
  | "hdr" | "mp3"
  /** An upload cut short: an MP4's header (faststart) whole, none of its media after it. */
  | "truncated";

const EXTENSIONS: Partial<Record<MediaKind, string>> = { webm: "webm", av1: "webm", "mkv-mp3": "mkv", prores: "mov", "phone-hevc": "mov", mp3: "mp3", random: "bin" };

/** Test files made by ffmpeg: what users upload, and what the platform must refuse. */
export async function makeMedia(dir: string, kind: MediaKind, opts: { seconds?: number; size?: string } = {}) {
  const seconds = opts.seconds ?? 4;
  const size = opts.size ?? "640x360";
  const file = path.join(dir, `${kind}-${randomBytes(3).toString("hex")}.${EXTENSIONS[kind] ?? "mp4"}`);
  const x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "60"];
  const vp9 = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"];
  const x265 = (pixFmt: string, params = "") => ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", pixFmt, "-x265-params", `log-level=error${params}`, "-tag:v", "hvc1"];
  const audioOnly = ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`];
  const args: Record<MediaKind, string[]> = {
    mp4: [...lavfi(seconds, size), ...x264, "-c:a", "aac", "-b:a", "96k", "-shortest", "-movflags", "+faststart"],
    webm: [...lavfi(seconds, size), ...vp9, "-c:a", "libopus", "-shortest"],
    truncated: [...lavfi(seconds, size), ...x264, "-c:a", "aac", "-shortest", "-movflags", "+faststart"],
    hevc: [...lavfi(seconds, size), ...x265("yuv420p"), "-c:a", "aac", "-shortest"],
    "phone-hevc": [...lavfi(seconds, size), ...x265("yuv420p"), "-c:a", "aac", "-shortest"],
    hdr: [
      ...lavfi(seconds, size), ...x265("yuv420p10le", ":colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc"),
      "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-c:a", "aac", "-shortest",
    ],
    av1: [...lavfi(seconds, size), "-c:v", "libsvtav1", "-preset", "12", "-crf", "50", "-c:a", "libopus", "-shortest"],
    "mkv-mp3": [...lavfi(seconds, size), ...x264, "-c:a", "libmp3lame", "-shortest"],
    prores: [...lavfi(seconds, size), "-c:v", "prores_ks", "-profile:v", "0", "-c:a", "pcm_s16le", "-shortest"],
    "no-audio": [...lavfi(seconds, size).slice(0, 4), ...x264, "-movflags", "+faststart"],
    "audio-only": [...audioOnly, "-c:a", "aac"],
    mp3: [...audioOnly, "-c:a", "libmp3lame"],
    random: [],
  };
  if (kind === "random") fs.writeFileSync(file, notAVideo());
  else await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args[kind], file], { env: { ...process.env, SVT_LOG: "1" } });
  if (kind === "phone-hevc") {
    // ffmpeg 5.1 writes a display matrix only when copying.
    const turned = file.replace(/\.mov$/, "-turned.mov");
    await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", file, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned]);
    fs.renameSync(turned, file);
  }
  if (kind === "truncated") {
    // ftyp, then moov (faststart): keep both and 16 bytes of what follows.
    const bytes = fs.readFileSync(file);
    const ftyp = bytes.readUInt32BE(0);
    assert.equal(bytes.toString("latin1", ftyp + 4, ftyp + 8), "moov");
    fs.writeFileSync(file, bytes.subarray(0, ftyp + bytes.readUInt32BE(ftyp) + 16));
  }
  return file;
}

export function digestOf(file: string) {
  const bytes = fs.readFileSync(file);
  return {
    md5: createHash("md5").update(bytes).digest("hex"),
    sha256: createHash("sha256").update(bytes).digest("hex"),
    size: bytes.length,
  };
}

/** PUTs a file to a pre-signed URL as a browser or curl would: raw body, no API key. */
export async function putFile(url: string, file: string) {
  const res = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "video/mp4", "content-length": String(fs.statSync(file).size) },
    body: fs.createReadStream(file) as unknown as BodyInit,
    duplex: "half",
  } as RequestInit);
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

/** The asset once it has left waiting/uploading/processing. */
export async function settled(api: Api, assetId: string, ms = 60_000, everyMs = 200) {
  return until(`asset ${assetId} to be ready or failed`, async () => {
    const asset = (await api.get(`asset/${assetId}`)).body;
    return asset.status.phase === "ready" || asset.status.phase === "failed" ? asset : undefined;
  }, ms, everyMs);
}

/** An asset whose renditions have all settled (none transcoding). */
export async function transcoded(api: Api, assetId: string, ms = 180_000) {
  return until(`asset ${assetId}'s renditions`, async () => {
    const asset = (await api.get(`asset/${assetId}`)).body;
    const renditions = asset.renditions ?? [];
    return renditions.length && renditions.every((r: { phase: string }) => r.phase !== "transcoding") ? asset : undefined;
  }, ms, 500);
}

export async function settledTask(api: Api, taskId: string, ms = 60_000) {
  return until(`task ${taskId} to finish`, async () => {
    const task = (await api.get(`task/${taskId}`)).body;
    return task.status.phase === "completed" || task.status.phase === "failed" ? task : undefined;
  }, ms, 200);
}

export async function download(url: string, file: string) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return res;
}

/** The first segment's URL of an HLS URL, through the master playlist's first variant if it is one, as a player starts. */
export async function firstSegmentUrl(playlistUrl: string): Promise<string> {
  const res = await fetch(playlistUrl);
  if (!res.ok) throw new Error(`GET ${playlistUrl}: ${res.status}`);
  const text = await res.text();
  const uri = text.split("\n").find((l) => l && !l.startsWith("#"));
  if (!uri) throw new Error(`no URI in ${playlistUrl}:\n${text}`);
  const next = new URL(uri, playlistUrl).toString();
  return text.includes("#EXT-X-STREAM-INF") ? firstSegmentUrl(next) : next;
}

/**
 * 2 MiB of fixed pseudo-random bytes (chacha20 of zeros) that ffprobe recognises as nothing:
 * truly random bytes now and then look like some container to it (an "lrc" lyrics file).
 */
function notAVideo(): Buffer {
  const key = createHash("sha256").update("castline-not-a-video").digest();
  return createCipheriv("chacha20", key, Buffer.alloc(16)).update(Buffer.alloc(2 * 1024 * 1024));
}
