import type { Admission } from "@/lib/access/gate";
import { admitViewer } from "@/lib/access/gate";
import { playlistWithToken } from "@/lib/access/token";
import { liveKey, liveThumbnailKey } from "@/lib/live/keys";
import { liveFileKey, masterUnderSession, SAFE_NAME } from "@/lib/live/playback";
import { liveSession, livePlaylist, streamByPlayback, streamOfLiveSession } from "./content";
import { CONTENT_TYPES, IMMUTABLE, LIVE_PLAYLIST, notFound, text, type Reply, type ViewerRequest } from "./reply";
import { heldObjectReply, objectReply } from "./stored";

/**
 * Live HLS of a stream, by playback id, for viewers its playback policy admits, from the object
 * store whichever node wrote it: /hls/{playbackId}/index.m3u8 is the current session's master
 * playlist (never cached: it names the session); /hls/{playbackId}/{sessionId}/{epoch}/{variant}/{file}
 * its media playlists and segments; /hls/{playbackId}/thumbnail.jpg its latest frame (refreshed
 * every few seconds). Gated, every playlist names its files with the viewer's playback token.
 */
export async function liveHls(req: ViewerRequest, playbackId: string, parts: string[]): Promise<Reply> {
  if (![playbackId, ...parts].every((p) => SAFE_NAME.test(p))) return notFound();

  if (parts.length === 1 && (parts[0] === "index.m3u8" || parts[0] === "thumbnail.jpg")) {
    const stream = await streamByPlayback(playbackId);
    if (!stream) return notFound();
    const admission = await admitViewer(req, stream);
    if (!admission.ok) return admission.reply;
    const live = await liveSession(stream.id);
    if (!live) return notFound();
    if (parts[0] === "thumbnail.jpg") {
      return admitted(
        admission,
        await objectReply(req, liveThumbnailKey(live.sessionId, live.epoch), { cacheControl: "public, max-age=5", contentType: "image/jpeg" }),
      );
    }
    const master = await livePlaylist(liveKey(live.sessionId, live.epoch, "index.m3u8"));
    if (!master) return notFound();
    return { ...playlistReply(admission, masterUnderSession(master, live.sessionId, live.epoch), "no-cache"), viewerOf: stream.id };
  }
  if (parts.length !== 4 || !/^\d+$/.test(parts[1])) return notFound();
  const [sessionId, epoch, variant, file] = parts;
  const stream = await streamOfLiveSession(playbackId, sessionId);
  if (!stream) return notFound();
  const admission = await admitViewer(req, stream);
  if (!admission.ok) return admission.reply;
  const key = liveFileKey(sessionId, Number(epoch), variant, file);
  if (file.endsWith(".m3u8")) {
    const playlist = await livePlaylist(key);
    if (!playlist) return notFound();
    // Players poll this every segment: who is watching, counted as they do.
    return { ...playlistReply(admission, playlist, LIVE_PLAYLIST), viewerOf: stream.id };
  }
  // A segment: every viewer fetches it within seconds of the others, and it never changes under its key.
  return admitted(admission, await heldObjectReply(req, key, { cacheControl: IMMUTABLE }));
}

/** A playlist for this viewer: gated, each URI carries their playback token. */
export function playlistReply(admission: Admission & { ok: true }, playlist: string, cacheControl: string): Reply {
  return admitted(admission, text(admission.token ? playlistWithToken(playlist, admission.token) : playlist, CONTENT_TYPES.m3u8, cacheControl));
}

/** An answer with the CORS and caching the admission calls for; whole in memory and admitted alike for all who ask its URL, theirs to share while that lasts. */
export function admitted(admission: Admission & { ok: true }, reply: Reply): Reply {
  const shared = admission.sharedUntil && reply.status === 200 && reply.body !== undefined ? { sharedUntil: admission.sharedUntil } : {};
  return { ...reply, headers: admission.headers(reply.headers), ...shared };
}
