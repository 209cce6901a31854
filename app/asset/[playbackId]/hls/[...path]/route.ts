import { assetForPlayback } from "@/lib/assets/files";
import { captionKey } from "@/lib/assets/keys";
import { assetMasterPlaylist } from "@/lib/assets/master";
import type { VideoSpec } from "@/lib/assets/schema";
import { renditionsOf } from "@/lib/assets/service";
import { textTracksOf } from "@/lib/assets/text-tracks";
import { IMMUTABLE, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { wholeFilePlaylist } from "@/lib/media/hls";

/** index.m3u8, source.m3u8 and its seg_*.ts, or <rendition>/index.m3u8 and its segments. */
const FILE = /^(\w[\w.-]{0,63}\/)?\w[\w.-]{0,63}\.(m3u8|ts)$/;
/** A caption track (a track id) as WebVTT, or as the one-segment playlist HLS players load it by. */
const CAPTIONS = /^captions\/([\w-]{1,64})\.(vtt|m3u8)$/;
/** A master still growing is fetched again by players that reload; a CDN keeps it briefly. */
const GROWING = "public, max-age=2";
/** Even a complete ladder's master changes when captions are added or removed. */
const SETTLED = "public, max-age=60";

/**
 * An asset's HLS (the playbackUrl): the master playlist, built from the renditions
 * ready so far and the caption tracks, the stored playlists and segments, which never
 * change once written, and the captions.
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; path: string[] }> }) {
  const { playbackId, path } = await ctx.params;
  const file = path.join("/");
  const asset = await assetForPlayback(playbackId);
  if (!asset?.files?.hls) return notFoundResponse();
  const captions = CAPTIONS.exec(file);
  if (captions) {
    const [, trackId, kind] = captions;
    // Only a listed track: a deleted one's file is gone, and no other key can be named.
    if (!(await textTracksOf(asset.id)).some((t) => t.id === trackId)) return notFoundResponse();
    if (kind === "vtt") return objectResponse(captionKey(asset.id, trackId), req, { cacheControl: IMMUTABLE, contentType: "text/vtt; charset=utf-8" });
    const duration = (asset.videoSpec as VideoSpec | null)?.duration ?? 0;
    return textResponse(wholeFilePlaylist(`${trackId}.vtt`, duration), "application/vnd.apple.mpegurl", IMMUTABLE);
  }
  if (!FILE.test(file)) return notFoundResponse();
  if (file === "index.m3u8" && asset.files.hlsSource) {
    const [renditions, textTracks] = await Promise.all([renditionsOf(asset.id), textTracksOf(asset.id)]);
    const { playlist, final } = assetMasterPlaylist(asset, renditions, textTracks);
    return textResponse(playlist, "application/vnd.apple.mpegurl", final ? SETTLED : GROWING);
  }
  return objectResponse(`${asset.files.hls}/${file}`, req, { cacheControl: IMMUTABLE });
}

export const HEAD = GET;
