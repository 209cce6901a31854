import { preflight } from "@/lib/api/cors";
import { admitViewer } from "@/lib/access/gate";
import { playlistWithToken } from "@/lib/access/token";
import { assetForPlayback } from "@/lib/assets/files";
import { captionKey } from "@/lib/assets/keys";
import { assetMasterPlaylist } from "@/lib/assets/master";
import { renditionsOf } from "@/lib/assets/service";
import { textTracksOf } from "@/lib/assets/text-tracks";
import { IMMUTABLE, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { readText } from "@/lib/live/playback";
import { wholeFilePlaylist } from "@/lib/av/hls";

/** index.m3u8, source.m3u8 and its seg_*.ts, or <rendition>/index.m3u8 and its segments. */
const FILE = /^(\w[\w.-]{0,63}\/)?\w[\w.-]{0,63}\.(m3u8|ts)$/;
/** A caption track (a track id) as WebVTT, or as the one-segment playlist HLS players load it by. */
const CAPTIONS = /^captions\/([\w-]{1,64})\.(vtt|m3u8)$/;
/** A master still growing is fetched again by players that reload; a CDN keeps it briefly. */
const GROWING = "public, max-age=2";
/** Even a complete ladder's master changes when captions are added or removed. */
const SETTLED = "public, max-age=60";

/**
 * An asset's HLS (the playbackUrl), for viewers its playback policy admits: the master
 * playlist, built from the renditions ready so far and the caption tracks, the stored
 * playlists and segments, which never change once written, and the captions. Gated, every
 * playlist names its files with the viewer's playback token.
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; path: string[] }> }) {
  const { playbackId, path } = await ctx.params;
  const file = path.join("/");
  const asset = await assetForPlayback(playbackId);
  if (!asset?.files?.hls) return notFoundResponse();
  const admission = await admitViewer(req, asset);
  if (!admission.ok) return admission.response;
  const { token } = admission;
  const playlist = (text: string, cacheControl: string) =>
    admission.answer(textResponse(token ? playlistWithToken(text, token) : text, "application/vnd.apple.mpegurl", cacheControl));

  const captions = CAPTIONS.exec(file);
  if (captions) {
    const [, trackId, kind] = captions;
    // Only a listed track: a deleted one's file is gone, and no other key can be named.
    if (!(await textTracksOf(asset.id)).some((t) => t.id === trackId)) return notFoundResponse();
    if (kind === "vtt") return admission.answer(await objectResponse(captionKey(asset.id, trackId), req, { cacheControl: IMMUTABLE, contentType: "text/vtt; charset=utf-8" }));
    const duration = asset.videoSpec?.duration ?? 0;
    return playlist(wholeFilePlaylist(`${trackId}.vtt`, duration), IMMUTABLE);
  }
  if (!FILE.test(file)) return notFoundResponse();
  if (file === "index.m3u8" && asset.files.hlsSource) {
    const [renditions, textTracks] = await Promise.all([renditionsOf(asset.id), textTracksOf(asset.id)]);
    const master = assetMasterPlaylist(asset, renditions, textTracks);
    return playlist(master.playlist, master.final ? SETTLED : GROWING);
  }
  const key = `${asset.files.hls}/${file}`;
  if (token && file.endsWith(".m3u8")) {
    const text = await readText(key);
    return text ? playlist(text, IMMUTABLE) : notFoundResponse();
  }
  return admission.answer(await objectResponse(key, req, { cacheControl: IMMUTABLE }));
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
