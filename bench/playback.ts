// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawnSync } from "node:child_process";
import { importPKCS8, SignJWT } from "jose";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import type { z } from "zod";
import type { RequestUpload } from "@/lib/assets/schema";
import { withKey } from "./api-call";
import { putFile } from "./vod";

/**
 * What the playback sections (origin, access, delivery) set up as a user and reach as a player,
 * through HTTP only (the API, the playback info, the playlists), so that they measure the viewer
 * path whatever serves it behind those URLs.
 */
const CLIP_S = 12;
const ASSET_READY_MS = 300_000;

/** A 720p30 clip at 3 Mbit/s, so that a segment weighs what a real 720p one does. */
export function makeClip(file: string) {
  const r = spawnSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=30:duration=${CLIP_S}`,
    "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${CLIP_S}`,
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "60", "-b:v", "3000k", "-maxrate", "3000k", "-bufsize", "6000k",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

/** What an upload may ask for besides its name (a playback policy…). */
export type UploadOptions = Partial<z.input<typeof RequestUpload>>;

/** Uploads the file as a user would and waits until it is ready with its whole ladder. */
export async function readyAsset(appUrl: string, key: string, file: string, body: UploadOptions = {}) {
  const { url, asset } = await call(operations.requestUpload, { body: { name: "bench", ...body } }, withKey(appUrl, key));
  const put = await putFile(url, file);
  if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}: ${put.body.slice(0, 300)}`);
  const until = Date.now() + ASSET_READY_MS;
  for (;;) {
    const a = await call(operations.getAsset, { params: { id: asset.id } }, withKey(appUrl, key));
    // Measured once its ladder is done: transcoding would take the CPU from the server measured.
    if (a.status.phase === "ready" && a.renditions?.length && a.renditions.every((r) => r.phase !== "transcoding")) return asset;
    if (a.status.phase === "failed" || Date.now() > until) throw new Error(`asset ${asset.id}: ${a.status.phase} ${a.status.errorMessage ?? ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface PlayerUrls {
  /** The playlist the player was handed (a master, mostly). */
  master: string;
  /** The media playlist a player loads first, and what it answered. */
  playlist: string;
  playlistText: string;
  /** The first segment that playlist names. */
  segment: string;
}

/**
 * Playback info (with the viewer's credentials in `headers`), then its first HLS source (a
 * master) followed down its first entries to a media playlist and that playlist's first segment.
 */
export async function playerUrls(infoUrl: string, headers: Record<string, string> = {}): Promise<PlayerUrls> {
  const res = await fetch(infoUrl, { headers });
  if (!res.ok) throw new Error(`${infoUrl}: ${res.status}`);
  const info = (await res.json()) as { meta: { source: { url: string; type: string }[] } };
  const hls = info.meta.source.find((s) => s.type.endsWith("mpegurl"));
  if (!hls) throw new Error(`${infoUrl} lists no HLS source (yet)`);
  return mediaPlaylistOf(hls.url);
}

/** A playlist's first entry followed until it names segments: masters name playlists, media playlists name segments. */
export async function mediaPlaylistOf(master: string): Promise<PlayerUrls> {
  for (let url = master; ; ) {
    const res = await fetch(url);
    const text = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    const first = text.split("\n").find((l) => l.trim() && !l.startsWith("#"));
    if (!first) throw new Error(`${url} names nothing (yet)`);
    const next = new URL(first.trim(), url).href;
    if (!/\.m3u8(\?|$)/.test(next)) return { master, playlist: url, playlistText: text, segment: next };
    url = next;
  }
}

/** A signing key of the account (made through the API), and the viewer JWTs a site gating its videos signs with it. */
export async function viewerJwts(appUrl: string, key: string): Promise<(playbackId: string) => Promise<string>> {
  const signing = await call(operations.createSigningKey, { body: { name: "bench" } }, withKey(appUrl, key));
  const privateKey = await importPKCS8(Buffer.from(signing.privateKey, "base64").toString(), "ES256");
  return (playbackId) =>
    new SignJWT({ pub: signing.publicKey, action: "pull", sub: playbackId }).setProtectedHeader({ alg: "ES256", typ: "JWT" }).setExpirationTime("1h").sign(privateKey);
}
