import { notFound } from "@/lib/errors";
import { assetForPlayback } from "@/lib/assets/files";
import { mp4Url, renditionsOf, serializeAsset } from "@/lib/assets/service";
import { liveSessionFor, streamForPlayback } from "@/lib/live/playback";
import { liveThumbnailKey } from "@/lib/live/keys";
import { publicOrigin } from "@/lib/origin";
import { objects } from "@/lib/storage";
import type { PlaybackInfo } from "./schema";

const HLS = { hrn: "HLS (TS)", type: "html5/application/vnd.apple.mpegurl" };
const MP4 = { hrn: "MP4", type: "html5/video/mp4" };
const JPEG = { hrn: "Thumbnail (JPEG)", type: "image/jpeg" };

/** Playback info of a live stream (a source while it is live), a recording or an asset (once ready). */
export async function playbackInfo(playbackId: string): Promise<PlaybackInfo> {
  const origin = publicOrigin();
  const stream = await streamForPlayback(playbackId);
  if (stream) {
    const session = await liveSessionFor(stream.playbackId);
    const live = Boolean(session);
    const thumbnail = session && (await objects().stat(liveThumbnailKey(session.sessionId, session.epoch)));
    const source = live
      ? [
          { ...HLS, url: `${origin}/hls/${stream.playbackId}/index.m3u8` },
          ...(thumbnail ? [{ ...JPEG, url: `${origin}/hls/${stream.playbackId}/thumbnail.jpg` }] : []),
        ]
      : [];
    return { type: "live", meta: { live: live ? 1 : 0, source } };
  }
  const row = await assetForPlayback(playbackId);
  if (!row || row.phase !== "ready") throw notFound("playback id");
  const asset = serializeAsset(row);
  // Static MP4 renditions smallest first, as Livepeer lists them; the original after them.
  const mp4s = (await renditionsOf(row.id))
    .filter((r) => r.mp4Key)
    .sort((a, b) => a.height - b.height)
    .map((r) => ({ ...MP4, url: mp4Url(row.playbackId, r.name), size: r.mp4Size ?? undefined, width: r.width, height: r.height, bitrate: r.bitrate }));
  const assetUrl = `${publicOrigin()}/asset/${row.playbackId}`;
  const source = [
    ...(asset.playbackUrl ? [{ ...HLS, url: asset.playbackUrl }] : []),
    ...mp4s,
    ...(asset.downloadUrl ? [{ ...MP4, url: asset.downloadUrl }] : []),
    ...(row.files?.thumbnailsVtt ? [{ hrn: "Thumbnails", type: "text/vtt", url: `${assetUrl}/thumbnails/thumbnails.vtt` }] : []),
    ...(row.files?.thumbnail ? [{ hrn: "Thumbnail (JPEG)", type: "image/jpeg", url: `${assetUrl}/thumbnail.jpg` }] : []),
  ];
  return { type: asset.source.type === "recording" ? "recording" : "vod", meta: { live: 0, source } };
}
