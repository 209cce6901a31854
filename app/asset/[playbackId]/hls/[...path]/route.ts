import { assetForPlayback } from "@/lib/assets/files";
import { assetMasterPlaylist } from "@/lib/assets/master";
import { renditionsOf } from "@/lib/assets/service";
import { IMMUTABLE, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";

/** index.m3u8, source.m3u8 and its seg_*.ts, or <rendition>/index.m3u8 and its segments. */
const FILE = /^(\w[\w.-]{0,63}\/)?\w[\w.-]{0,63}\.(m3u8|ts)$/;
/** A master still growing is fetched again by players that reload; a CDN keeps it briefly. */
const GROWING = "public, max-age=2";

/**
 * An asset's HLS (the playbackUrl): the master playlist, built from the renditions
 * ready so far, and the stored playlists and segments, which never change once written.
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; path: string[] }> }) {
  const { playbackId, path } = await ctx.params;
  const file = path.join("/");
  const asset = await assetForPlayback(playbackId);
  if (!asset?.files?.hls || !FILE.test(file)) return notFoundResponse();
  if (file === "index.m3u8" && asset.files.hlsSource) {
    const { playlist, final } = assetMasterPlaylist(asset, await renditionsOf(asset.id));
    return textResponse(playlist, "application/vnd.apple.mpegurl", final ? "public, max-age=3600" : GROWING);
  }
  return objectResponse(`${asset.files.hls}/${file}`, req, { cacheControl: IMMUTABLE });
}

export const HEAD = GET;
