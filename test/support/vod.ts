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
  "-f", "lavfi", "-i", `testsrc2=size=${size}:rate=30:duration=${seconds}`,
  "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
];

/** Test files made by ffmpeg: what users upload, and what the platform must refuse. */
export async function makeMedia(dir: string, kind: "mp4" | "webm" | "hevc" | "audio-only" | "random", opts: { seconds?: number; size?: string } = {}) {
  const seconds = opts.seconds ?? 4;
  const size = opts.size ?? "640x360";
  const file = path.join(dir, `${kind}-${randomBytes(3).toString("hex")}.${kind === "webm" ? "webm" : kind === "random" ? "bin" : "mp4"}`);
  const x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "60"];
  const args: Record<typeof kind, string[]> = {
    mp4: [...lavfi(seconds, size), ...x264, "-c:a", "aac", "-b:a", "96k", "-shortest", "-movflags", "+faststart"],
    webm: [...lavfi(seconds, size), "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k", "-c:a", "libopus", "-shortest"],
    hevc: [...lavfi(seconds, size), "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-c:a", "aac", "-shortest"],
    "audio-only": ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`, "-c:a", "aac"],
    random: [],
  };
  if (kind === "random") fs.writeFileSync(file, notAVideo());
  else await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args[kind], file]);
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
export async function settled(api: Api, assetId: string, ms = 60_000) {
  return until(`asset ${assetId} to be ready or failed`, async () => {
    const asset = (await api.get(`asset/${assetId}`)).body;
    return asset.status.phase === "ready" || asset.status.phase === "failed" ? asset : undefined;
  }, ms, 200);
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
