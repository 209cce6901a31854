import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { sessions } from "@/db/schema";
import { sourceKey } from "@/lib/assets/keys";
import { CONTENT_TYPES, IMMUTABLE, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { recordingKey } from "@/lib/live/keys";
import { recordingPlaylist, SAFE_NAME } from "@/lib/live/playback";

/**
 * A session's recording (no auth: the session id is the capability, as the
 * recordingUrl and mp4Url handed out are): index.m3u8 (built from the segments
 * stored, every part of the session), the segments (<epoch>/<file>), and
 * video.mp4 once the recording became an asset.
 */
export async function GET(req: Request, ctx: { params: Promise<{ sessionId: string; path: string[] }> }) {
  const { sessionId, path: parts } = await ctx.params;
  if (![sessionId, ...parts].every((p) => SAFE_NAME.test(p))) return notFoundResponse();
  const [first, second] = parts;
  if (parts.length === 1 && first === "index.m3u8") {
    const playlist = await recordingPlaylist(sessionId);
    return playlist ? textResponse(playlist, CONTENT_TYPES.m3u8, "no-cache") : notFoundResponse();
  }
  if (parts.length === 1 && first === "video.mp4") {
    const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId), columns: { assetId: true, recordingStatus: true } });
    if (!session?.assetId || session.recordingStatus !== "ready") return notFoundResponse();
    return objectResponse(sourceKey(session.assetId), req, { cacheControl: IMMUTABLE, contentType: CONTENT_TYPES.mp4 });
  }
  if (parts.length === 2 && /^\d+$/.test(first) && second.endsWith(".ts")) {
    return objectResponse(recordingKey(sessionId, Number(first), second), req, { cacheControl: IMMUTABLE });
  }
  return notFoundResponse();
}

export const HEAD = GET;
