/**
 * What a viewer's player asks before it plays: `GET /api/playback/{playbackId}`, the
 * Livepeer playback-info shape. Public (no cookies), so an embed on any site works.
 */

import type { PlaybackInfo, PlaybackSource, PlaybackType } from "@/lib/playback/schema";

export type { PlaybackInfo, PlaybackType };

/** Where a playback ID stands for a viewer right now. */
export type Playback =
  | { status: "ready"; type: PlaybackType; live: boolean; src: string; format: MediaFormat; thumbnails?: string }
  | { status: "offline"; type: PlaybackType }
  | { status: "not-found" };

/** HLS goes through hls.js (or Safari's own); a plain file (MP4) straight to the video element. */
export type MediaFormat = "hls" | "file";

const isHls = (s: PlaybackSource) => /mpegurl/i.test(s.type) || /^HLS/i.test(s.hrn) || /\.m3u8(\?|$)/.test(s.url);

/** HLS when offered (adaptive, with a quality menu), else the first video file. */
export function pickSource(info: PlaybackInfo): { src: string; format: MediaFormat } | undefined {
  const sources = info.meta.source ?? [];
  const hls = sources.find(isHls);
  if (hls) return { src: hls.url, format: "hls" };
  // A thumbnail is listed too, but is nothing to play.
  const file = sources.find((s) => !/^image\//.test(s.type));
  return file && { src: file.url, format: "file" };
}

export function toPlayback(info: PlaybackInfo): Playback {
  const source = pickSource(info);
  const live = info.meta.live === 1;
  // A live stream without a broadcast has nothing to play, whatever sources are listed.
  if (!source || (info.type === "live" && !live)) return { status: "offline", type: info.type };
  // The WebVTT seek-preview track of a video on demand, when it has one.
  const thumbnails = info.meta.source?.find((s) => s.hrn === "Thumbnails" && /vtt/i.test(s.type))?.url;
  return { status: "ready", type: info.type, live, ...source, ...(thumbnails && { thumbnails }) };
}

/** Resolves a playback ID; throws when the server cannot be reached or fails (worth retrying). */
export async function fetchPlayback(playbackId: string, signal?: AbortSignal): Promise<Playback> {
  const res = await fetch(`/api/playback/${encodeURIComponent(playbackId)}`, {
    headers: { accept: "application/json" },
    credentials: "omit",
    cache: "no-store",
    signal,
  });
  if (res.status === 404) return { status: "not-found" };
  if (!res.ok) throw new Error(`playback info: ${res.status}`);
  return toPlayback((await res.json()) as PlaybackInfo);
}
