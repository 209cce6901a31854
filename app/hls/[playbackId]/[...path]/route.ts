import path from "node:path";
import { CONTENT_TYPES, fileResponse, notFoundResponse, textResponse } from "@/lib/api/files";
import { liveMasterPlaylist, liveSessionFor, mediaDir, SAFE_NAME, sessionOfPlayback } from "@/lib/live/playback";

/**
 * Live HLS of a stream, by playback id (no auth, CORS open):
 * /hls/{playbackId}/index.m3u8 is the current session's master playlist;
 * /hls/{playbackId}/{sessionId}/{variant}/{file} its media playlists and segments.
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; path: string[] }> }) {
  const { playbackId, path: parts } = await ctx.params;
  if (![playbackId, ...parts].every((p) => SAFE_NAME.test(p))) return notFoundResponse();

  if (parts.length === 1 && parts[0] === "index.m3u8") {
    const sessionId = await liveSessionFor(playbackId);
    const master = sessionId && (await liveMasterPlaylist(sessionId));
    if (!master) return notFoundResponse();
    return textResponse(master, CONTENT_TYPES.m3u8, "no-cache");
  }
  if (parts.length !== 3) return notFoundResponse();
  const [sessionId, variant, file] = parts;
  if (!(await sessionOfPlayback(playbackId, sessionId))) return notFoundResponse();
  const isPlaylist = file.endsWith(".m3u8");
  return fileResponse(path.join(mediaDir(), "live", sessionId, variant, file), req, {
    // Media playlists change every segment; a segment never changes.
    cacheControl: isPlaylist ? "no-cache" : "public, max-age=31536000, immutable",
  });
}

export const HEAD = GET;
