import { notFound, Refusal } from "@/lib/errors";
import { admitViewer, type GatedContent } from "@/lib/access/gate";
import { withToken } from "@/lib/access/token";
import { viewerRequestOf } from "@/lib/delivery/reply";
import { assetForPlayback } from "@/lib/assets/files";
import { mp4Url, renditionsOf, serializeAsset, type AssetRow } from "@/lib/assets/service";
import { latestRecording, liveSessionOf, streamForPlayback } from "@/lib/live/playback";
import { liveThumbnailKey } from "@/lib/live/keys";
import { containerNamed } from "@/lib/av/containers";
import { publicOrigin } from "@/lib/origin";
import { objects } from "@/lib/storage";
import type { StreamRow } from "@/lib/streams/service";
import type { DvrPlayback, PlaybackInfo, PlaybackSource, PlaybackType } from "./schema";

const HLS = { hrn: "HLS (TS)", type: "html5/application/vnd.apple.mpegurl" } as const;
const MP4 = { hrn: "MP4", type: "html5/video/mp4" };
const JPEG = { hrn: "Thumbnail (JPEG)", type: "image/jpeg" };
/** Livepeer's WebRTC source: its player tries WHEP there first, and HLS when it answers 406 or shows nothing. */
const WEBRTC = { hrn: "WebRTC (H264)", type: "html5/video/h264" };

/** What a playback id names: a stream (live), or an asset once ready (a VOD or a recording). */
export type Playable = { stream: StreamRow; asset?: undefined } | { asset: AssetRow; stream?: undefined };

export async function findPlayable(playbackId: string): Promise<Playable> {
  const stream = await streamForPlayback(playbackId);
  if (stream) return { stream };
  const asset = await assetForPlayback(playbackId);
  if (asset?.phase !== "ready") throw notFound("playback id");
  return { asset };
}

/** The stream or asset a playback id names, ready or not; none for unknown and taken-down ones. */
export async function contentForPlayback(playbackId: string): Promise<GatedContent | undefined> {
  return (await streamForPlayback(playbackId)) ?? (await assetForPlayback(playbackId));
}

export const gatedContent = (playable: Playable): GatedContent => ({ ...(playable.stream ?? playable.asset), playbackType: playbackTypeOf(playable) });

const playbackTypeOf = (playable: Playable): PlaybackType => (playable.stream ? "live" : playable.asset.source.type === "recording" ? "recording" : "vod");

/**
 * Playback info of a live stream (a source while it is live, and the replay of its latest
 * broadcast), a recording or an asset; for gated content, every URL carries the admitted
 * viewer's playback token (`token`, the admission of `req`).
 */
export async function playbackInfo(req: Request, playable: Playable, token?: string): Promise<PlaybackInfo> {
  const sources = playable.stream ? await liveSources(playable.stream) : await assetSources(playable.asset);
  const policy = gatedContent(playable).playbackPolicy;
  const source = token ? sources.map((s) => ({ ...s, url: withToken(s.url, token) })) : sources;
  const type = playbackTypeOf(playable);
  const live = playable.stream ? (sources.length ? 1 : 0) : 0;
  const dvrPlayback = playable.stream && (await replayOf(req, playable.stream));
  return { type, meta: { live, source, ...(policy ? { playbackPolicy: policy } : {}), ...(dvrPlayback ? { dvrPlayback } : {}) } };
}

/**
 * Livepeer's meta.dvrPlayback: the recording of the stream's latest broadcast, for a viewer its
 * own policy admits (which may differ from the stream's now: lib/access/recording.ts), with
 * a playback token of the recording's where it is gated. None for a viewer it refuses.
 */
async function replayOf(req: Request, stream: StreamRow): Promise<DvrPlayback[] | undefined> {
  const recording = await latestRecording(stream.id);
  if (!recording) return undefined;
  const admission = await admitViewer(viewerRequestOf(req), recording.content);
  if (!admission.ok) return undefined;
  return [{ ...HLS, url: admission.token ? withToken(recording.url, admission.token) : recording.url }];
}

async function liveSources(stream: StreamRow): Promise<PlaybackSource[]> {
  const session = await liveSessionOf(stream.id);
  if (!session) return [];
  const origin = publicOrigin();
  const thumbnail = await objects().stat(liveThumbnailKey(session.sessionId, session.epoch));
  return [
    { ...HLS, url: `${origin}/hls/${stream.playbackId}/index.m3u8` },
    ...(thumbnail ? [{ ...JPEG, url: `${origin}/hls/${stream.playbackId}/thumbnail.jpg` }] : []),
    // Held by a node that plays WebRTC: viewers may watch it in under a second (WHEP).
    ...(session.webrtc ? [{ ...WEBRTC, url: `${origin}/webrtc/${stream.playbackId}` }] : []),
  ];
}

async function assetSources(row: AssetRow): Promise<PlaybackSource[]> {
  const asset = serializeAsset(row);
  // Static MP4 renditions smallest first, as Livepeer lists them; the original after them.
  const mp4s = (await renditionsOf(row.id))
    .filter((r) => r.mp4Key)
    .sort((a, b) => a.height - b.height)
    .map((r) => ({ ...MP4, url: mp4Url(row.playbackId, r.name), size: r.mp4Size ?? undefined, width: r.width, height: r.height, bitrate: r.bitrate }));
  const assetUrl = `${publicOrigin()}/asset/${row.playbackId}`;
  return [
    ...(asset.playbackUrl ? [{ ...HLS, url: asset.playbackUrl }] : []),
    ...mp4s,
    ...(asset.downloadUrl && originalPlaysInBrowsers(row) ? [{ ...MP4, url: asset.downloadUrl }] : []),
    ...(row.files?.thumbnailsVtt ? [{ hrn: "Thumbnails", type: "text/vtt", url: `${assetUrl}/thumbnails/thumbnails.vtt` }] : []),
    ...(row.files?.thumbnail ? [{ ...JPEG, url: `${assetUrl}/thumbnail.jpg` }] : []),
  ];
}

/** The original is a source players may play when it is an MP4 (or MOV) that needed no transcode. */
function originalPlaysInBrowsers(row: AssetRow): boolean {
  return !row.files?.transcoded && Boolean(containerNamed(row.videoSpec?.format).playsInBrowsers);
}

/**
 * The name of what a playback id plays, for the player's page to show before any
 * credential is checked: public content only, since a gated stream's or video's name is
 * not for viewers who may not watch it.
 */
export async function publicName(playbackId: string): Promise<string | undefined> {
  const playable = await findPlayable(playbackId).catch((err: unknown) => {
    if (err instanceof Refusal) return undefined;
    throw err;
  });
  const content = playable && gatedContent(playable);
  return content && (!content.playbackPolicy || content.playbackPolicy.type === "public") ? (playable.stream ?? playable.asset).name : undefined;
}
