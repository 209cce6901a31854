import { admitViewer } from "@/lib/access/gate";
import { vttWithToken } from "@/lib/access/token";
import { captionKey } from "@/lib/assets/keys";
import { contentDisposition, downloadName } from "@/lib/api/download-name";
import { containerNamed } from "@/lib/av/containers";
import { wholeFilePlaylist } from "@/lib/av/hls";
import { readText } from "@/lib/live/playback";
import { assetByPlayback, assetMaster, renditions, storedPlaylist, textTracks } from "./content";
import { admitted, playlistReply } from "./live";
import { CONTENT_TYPES, IMMUTABLE, notFound, text, type Reply, type ViewerRequest } from "./reply";
import { objectReply } from "./stored";

/** index.m3u8, source.m3u8 and its seg_*.ts, or <rendition>/index.m3u8 and its segments. */
const HLS_FILE = /^(\w[\w.-]{0,63}\/)?\w[\w.-]{0,63}\.(m3u8|ts)$/;
/** A caption track (a track id) as WebVTT, or as the one-segment playlist HLS players load it by. */
const CAPTIONS = /^captions\/([\w-]{1,64})\.(vtt|m3u8)$/;
/** A master still growing is fetched again by players that reload; a CDN keeps it briefly. */
const GROWING = "public, max-age=2";
/** Even a complete ladder's master changes when captions are added or removed. */
const SETTLED = "public, max-age=60";
const DAY = "public, max-age=86400";

/**
 * Everything of an asset a viewer fetches, by playback id, for viewers its playback policy admits:
 * /asset/{playbackId}/hls/... (its playbackUrl), /video (the original), /mp4/<rendition>.mp4,
 * /thumbnail.jpg, /thumbnails/... (the seek preview). Deleted assets still play (the spec says
 * so); taken-down ones never.
 */
export async function assetFiles(req: ViewerRequest, playbackId: string, parts: string[]): Promise<Reply> {
  const [kind, ...rest] = parts;
  if (kind === "hls" && rest.length) return assetHls(req, playbackId, rest.join("/"));
  const file = rest[0];
  // What no asset has is refused before the asset is looked up.
  const mp4Name = kind === "mp4" && file ? /^(\w[\w.-]{0,63})\.mp4$/.exec(file)?.[1] : undefined;
  const known =
    rest.length === 0
      ? kind === "video" || kind === "thumbnail.jpg"
      : rest.length === 1 && ((kind === "mp4" && mp4Name) || (kind === "thumbnails" && (file === "thumbnails.vtt" || /^sprite_\d{3,5}\.jpg$/.test(file))));
  if (!known) return notFound();
  const asset = await assetByPlayback(playbackId);
  if (!asset) return notFound();
  const admission = await admitViewer(req, asset);
  if (!admission.ok) return admission.reply;
  const files = asset.files ?? {};

  if (kind === "video" && files.source) {
    // The original as uploaded: its container's content type, a download named after the asset.
    const container = containerNamed(asset.videoSpec?.format);
    const disposition = contentDisposition(downloadName(asset.name, container.format));
    return admitted(admission, await objectReply(req, files.source, { cacheControl: IMMUTABLE, contentType: container.contentType, disposition }));
  }
  if (kind === "thumbnail.jpg" && files.thumbnail) {
    return admitted(admission, await objectReply(req, files.thumbnail, { cacheControl: DAY, contentType: CONTENT_TYPES.jpg }));
  }
  if (mp4Name) {
    // A static MP4 rendition: a download is named after the asset and the rendition.
    const rendition = (await renditions(asset.id)).find((r) => r.name === mp4Name);
    if (!rendition?.mp4Key) return notFound();
    const disposition = contentDisposition(downloadName(asset.name, "mp4", mp4Name));
    return admitted(admission, await objectReply(req, rendition.mp4Key, { cacheControl: IMMUTABLE, contentType: CONTENT_TYPES.mp4, disposition }));
  }
  if (kind === "thumbnails") {
    // The seek-preview track and the sprite sheets its cues point into.
    const key = files.thumbnailsVtt?.replace(/thumbnails\.vtt$/, file);
    if (!key) return notFound();
    const vtt = file === "thumbnails.vtt";
    if (vtt && admission.token) {
      // The cues name the sprites relatively: each needs the viewer's token too.
      const track = await readText(key);
      return track ? admitted(admission, text(vttWithToken(track, admission.token), "text/vtt", DAY)) : notFound();
    }
    return admitted(admission, await objectReply(req, key, { cacheControl: DAY, contentType: vtt ? "text/vtt" : CONTENT_TYPES.jpg }));
  }
  return notFound();
}

/**
 * An asset's HLS: the master playlist, built from the renditions ready so far and the caption
 * tracks, the stored playlists and segments, which never change once written, and the captions.
 * Gated, every playlist names its files with the viewer's playback token.
 */
async function assetHls(req: ViewerRequest, playbackId: string, file: string): Promise<Reply> {
  const asset = await assetByPlayback(playbackId);
  if (!asset?.files?.hls) return notFound();
  const admission = await admitViewer(req, asset);
  if (!admission.ok) return admission.reply;

  const captions = CAPTIONS.exec(file);
  if (captions) {
    const [, trackId, kind] = captions;
    // Only a listed track: a deleted one's file is gone, and no other key can be named.
    if (!(await textTracks(asset.id)).some((t) => t.id === trackId)) return notFound();
    if (kind === "vtt")
      return admitted(admission, await objectReply(req, captionKey(asset.id, trackId), { cacheControl: IMMUTABLE, contentType: CONTENT_TYPES.vtt }));
    return playlistReply(admission, wholeFilePlaylist(`${trackId}.vtt`, asset.videoSpec?.duration ?? 0), IMMUTABLE);
  }
  if (!HLS_FILE.test(file)) return notFound();
  if (file === "index.m3u8" && asset.files.hlsSource) {
    const master = await assetMaster(asset);
    if (!master) return notFound();
    return playlistReply(admission, master.playlist, master.final ? SETTLED : GROWING);
  }
  const key = `${asset.files.hls}/${file}`;
  if (file.endsWith(".m3u8")) {
    const playlist = await storedPlaylist(asset.id, key);
    return playlist ? playlistReply(admission, playlist, IMMUTABLE) : notFound();
  }
  return admitted(admission, await objectReply(req, key, { cacheControl: IMMUTABLE }));
}
