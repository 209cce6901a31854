import { preflight } from "@/lib/api/cors";
import { admitViewer } from "@/lib/access/gate";
import { playlistWithToken } from "@/lib/access/token";
import { CONTENT_TYPES, IMMUTABLE, LIVE_PLAYLIST, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { liveThumbnailKey } from "@/lib/live/keys";
import { liveFileKey, liveMasterPlaylist, liveSessionOf, readText, SAFE_NAME, streamForPlayback, streamOfSession } from "@/lib/live/playback";

/**
 * Live HLS of a stream, by playback id, for viewers its playback policy admits, from the
 * object store whichever node wrote it: /hls/{playbackId}/index.m3u8 is the current
 * session's master playlist (never cached: it names the session);
 * /hls/{playbackId}/{sessionId}/{epoch}/{variant}/{file} its media playlists and segments;
 * /hls/{playbackId}/thumbnail.jpg its latest frame (refreshed every few seconds).
 * Gated, every playlist names its files with the viewer's playback token.
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; path: string[] }> }) {
  const { playbackId, path: parts } = await ctx.params;
  if (![playbackId, ...parts].every((p) => SAFE_NAME.test(p))) return notFoundResponse();

  if (parts.length === 1 && (parts[0] === "index.m3u8" || parts[0] === "thumbnail.jpg")) {
    const stream = await streamForPlayback(playbackId);
    if (!stream) return notFoundResponse();
    const admission = await admitViewer(req, stream);
    if (!admission.ok) return admission.response;
    const live = await liveSessionOf(stream.id);
    if (!live) return notFoundResponse();
    if (parts[0] === "thumbnail.jpg") {
      return admission.answer(await objectResponse(liveThumbnailKey(live.sessionId, live.epoch), req, { cacheControl: "public, max-age=5", contentType: "image/jpeg" }));
    }
    const master = await liveMasterPlaylist(live.sessionId, live.epoch);
    if (!master) return notFoundResponse();
    return admission.answer(textResponse(admission.token ? playlistWithToken(master, admission.token) : master, CONTENT_TYPES.m3u8, "no-cache"));
  }
  if (parts.length !== 4 || !/^\d+$/.test(parts[1])) return notFoundResponse();
  const [sessionId, epoch, variant, file] = parts;
  const stream = await streamOfSession(playbackId, sessionId);
  if (!stream) return notFoundResponse();
  const admission = await admitViewer(req, stream);
  if (!admission.ok) return admission.response;
  const key = liveFileKey(sessionId, Number(epoch), variant, file);
  if (file.endsWith(".m3u8")) {
    // One read of the store, not a stat and a read: players poll this every segment.
    const playlist = await readText(key);
    if (!playlist) return notFoundResponse();
    return admission.answer(textResponse(admission.token ? playlistWithToken(playlist, admission.token) : playlist, CONTENT_TYPES.m3u8, LIVE_PLAYLIST));
  }
  return admission.answer(await objectResponse(key, req, { cacheControl: IMMUTABLE }));
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
