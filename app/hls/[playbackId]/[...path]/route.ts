import { CONTENT_TYPES, IMMUTABLE, LIVE_PLAYLIST, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { liveThumbnailKey } from "@/lib/live/keys";
import { liveFileKey, liveMasterPlaylist, liveSessionFor, readText, SAFE_NAME, sessionOfPlayback } from "@/lib/live/playback";

/**
 * Live HLS of a stream, by playback id (no auth, CORS open), from the object
 * store whichever node wrote it: /hls/{playbackId}/index.m3u8 is the current
 * session's master playlist (never cached: it names the session);
 * /hls/{playbackId}/{sessionId}/{epoch}/{variant}/{file} its media playlists and segments;
 * /hls/{playbackId}/thumbnail.jpg its latest frame (refreshed every few seconds).
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; path: string[] }> }) {
  const { playbackId, path: parts } = await ctx.params;
  if (![playbackId, ...parts].every((p) => SAFE_NAME.test(p))) return notFoundResponse();

  if (parts.length === 1 && parts[0] === "index.m3u8") {
    const live = await liveSessionFor(playbackId);
    const master = live && (await liveMasterPlaylist(live.sessionId, live.epoch));
    if (!master) return notFoundResponse();
    return textResponse(master, CONTENT_TYPES.m3u8, "no-cache");
  }
  if (parts.length === 1 && parts[0] === "thumbnail.jpg") {
    const live = await liveSessionFor(playbackId);
    if (!live) return notFoundResponse();
    return objectResponse(liveThumbnailKey(live.sessionId, live.epoch), req, { cacheControl: "public, max-age=5", contentType: "image/jpeg" });
  }
  if (parts.length !== 4 || !/^\d+$/.test(parts[1])) return notFoundResponse();
  const [sessionId, epoch, variant, file] = parts;
  if (!(await sessionOfPlayback(playbackId, sessionId))) return notFoundResponse();
  const key = liveFileKey(sessionId, Number(epoch), variant, file);
  if (file.endsWith(".m3u8")) {
    // One read of the store, not a stat and a read: players poll this every segment.
    const playlist = await readText(key);
    return playlist ? textResponse(playlist, CONTENT_TYPES.m3u8, LIVE_PLAYLIST) : notFoundResponse();
  }
  return objectResponse(key, req, { cacheControl: IMMUTABLE });
}

export const HEAD = GET;
