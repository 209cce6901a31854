/**
 * What a viewer's player asks before it plays: `GET /api/playback/{playbackId}`, the
 * Livepeer playback-info shape. Public (no cookies), so an embed on any site works; a
 * private stream or video needs the viewer's credential, sent in Livepeer's headers, and
 * its source URLs then carry a short-lived token of their own.
 */

import { isViewerRefusal } from "@/lib/access/refusal";
import { EMBED_GRANT_HEADER, EMBEDDERS_HEADER } from "@/lib/access/sites";
import type { PlaybackInfo, PlaybackSource, PlaybackType } from "@/lib/playback/schema";
import { kindOf, type NotPlaying } from "@/lib/playback/viewer-message";

export type { PlaybackInfo, PlaybackType };

/** Where a playback ID stands for a viewer right now. */
export type Playback =
  | { status: "ready"; type: PlaybackType; live: boolean; src: string; format: MediaFormat; thumbnails?: string; poster?: string; webrtc?: string }
  | { status: "offline"; type: PlaybackType }
  /** A stream between broadcasts whose latest one was recorded: its replay (HLS) can be watched. */
  | { status: "ended"; type: PlaybackType; replay: string }
  | Extract<NotPlaying, { status: "not-found" | "private" | "refused" | "unavailable" }>;

/** What lets a viewer watch gated content: a JWT signed with one of the owner's keys, or an access key their webhook accepts. */
export interface ViewerCredential {
  jwt?: string;
  accessKey?: string;
  /** The dashboard's session cookie goes along: the creator watching their own content. */
  session?: boolean;
  /** The player page's proof that a site its playback policy allows embeds it (lib/access/embed.ts). */
  embedGrant?: string;
}

/** The query parameter of a media URL that carries its short-lived playback token. */
const TOKEN_PARAM = "tkn";

/** A media URL without its playback token: the same media whichever token was handed out. */
export function withoutToken(url: string): string {
  if (!url.includes(`${TOKEN_PARAM}=`)) return url;
  const parsed = new URL(url, "http://x");
  parsed.searchParams.delete(TOKEN_PARAM);
  return url.startsWith("/") ? parsed.pathname + parsed.search : parsed.href;
}

/** The playback token a media URL carries, if any. */
export const tokenOf = (url: string): string | null => new URL(url, "http://x").searchParams.get(TOKEN_PARAM);

/** `url` with `token` in place of the playback token it carries (URLs without one are left alone). */
export function withToken(url: string, token: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has(TOKEN_PARAM)) return url;
  parsed.searchParams.set(TOKEN_PARAM, token);
  return parsed.href;
}

/** HLS goes through hls.js (or Safari's own); a plain file (MP4) straight to the video element. */
export type MediaFormat = "hls" | "file";

/** Livepeer's WebRTC source ("WebRTC (H264)", html5/video/h264): a WHEP URL, not a file. */
const isWebrtc = (s: PlaybackSource) => /^WebRTC/i.test(s.hrn) || s.type === "html5/video/h264";
const isHls = (s: PlaybackSource) => /mpegurl/i.test(s.type) || /^HLS/i.test(s.hrn) || /\.m3u8(\?|$)/.test(s.url);

/** HLS when offered (adaptive, with a quality menu), else the first video file. */
export function pickSource(info: PlaybackInfo): { src: string; format: MediaFormat } | undefined {
  const sources = info.meta.source ?? [];
  const hls = sources.find(isHls);
  if (hls) return { src: hls.url, format: "hls" };
  // A thumbnail is listed too, but is nothing to play.
  const file = sources.find((s) => !/^image\//.test(s.type) && !isWebrtc(s));
  return file && { src: file.url, format: "file" };
}

export function toPlayback(info: PlaybackInfo): Playback {
  const source = pickSource(info);
  const live = info.meta.live === 1;
  // A live stream without a broadcast has nothing live to play, whatever sources are listed; the replay of its last one, maybe.
  if (info.type === "live" && !live) {
    const replay = info.meta.dvrPlayback?.find((r) => r.url)?.url;
    return replay ? { status: "ended", type: info.type, replay } : { status: "offline", type: info.type };
  }
  if (!source) return { status: "offline", type: info.type };
  // The WebVTT seek-preview track of a video on demand, when it has one.
  const thumbnails = info.meta.source?.find((s) => s.hrn === "Thumbnails" && /vtt/i.test(s.type))?.url;
  // An asset's poster; a live stream's latest frame.
  const poster = info.meta.source?.find((s) => /^image\//.test(s.type))?.url;
  // A live stream's WHEP URL, which the player tries first.
  const webrtc = live ? info.meta.source?.find(isWebrtc)?.url : undefined;
  return { status: "ready", type: info.type, live, ...source, ...(thumbnails && { thumbnails }), ...(poster && { poster }), ...(webrtc && { webrtc }) };
}

/** Resolves a playback ID for a viewer; throws when the server cannot be reached or fails (worth retrying). */
export async function fetchPlayback(playbackId: string, credential: ViewerCredential, signal?: AbortSignal): Promise<Playback> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (credential.jwt) headers["Livepeer-Jwt"] = credential.jwt;
  if (credential.accessKey) headers["Livepeer-Access-Key"] = credential.accessKey;
  if (credential.embedGrant) {
    headers[EMBED_GRANT_HEADER] = credential.embedGrant;
    // The frames around the page, where the browser tells them (not Firefox): each must be an allowed site.
    const embedders = window.location.ancestorOrigins;
    if (embedders?.length) headers[EMBEDDERS_HEADER] = Array.from(embedders).join(" ");
  }
  const res = await fetch(`/api/playback/${encodeURIComponent(playbackId)}`, {
    headers,
    credentials: credential.session ? "same-origin" : "omit",
    cache: "no-store",
    signal,
  });
  if (res.status === 404) return { status: "not-found" };
  if (res.status === 401 || res.status === 403 || res.status === 503) {
    const refused = await refusalOf(res);
    if (refused) return refused;
  }
  if (!res.ok) throw new Error(`playback info: ${res.status}`);
  return toPlayback((await res.json()) as PlaybackInfo);
}

/** A refusal of gated content (lib/access/refusal.ts): why, what it refuses, the server's detail. */
async function refusalOf(res: Response): Promise<Playback | undefined> {
  const body = (await res.json().catch(() => ({}))) as { errors?: unknown; refusal?: unknown; type?: unknown };
  const kind = body.type === "live" || body.type === "vod" || body.type === "recording" ? kindOf(body.type) : undefined;
  const reason = Array.isArray(body.errors) && typeof body.errors[0] === "string" ? body.errors[0] : undefined;
  if (!isViewerRefusal(body.refusal)) return res.status === 503 ? undefined : { status: "refused", refusal: "refused", kind, reason };
  switch (body.refusal) {
    case "credential-needed":
      return { status: "private", kind };
    case "check-unavailable":
      return { status: "unavailable", kind };
    default:
      return { status: "refused", refusal: body.refusal, kind, reason };
  }
}
