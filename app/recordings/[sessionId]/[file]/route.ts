import path from "node:path";
import { fileResponse, notFoundResponse } from "@/lib/api/files";
import { mediaDir, SAFE_NAME } from "@/lib/live/playback";

/**
 * A session's recording (no auth: the session id is the capability, as the
 * recordingUrl and mp4Url handed out are): index.m3u8, its segments, video.mp4.
 * The working playlist (live.m3u8) stays private.
 */
export async function GET(req: Request, ctx: { params: Promise<{ sessionId: string; file: string }> }) {
  const { sessionId, file } = await ctx.params;
  if (!SAFE_NAME.test(sessionId) || !SAFE_NAME.test(file) || file === "live.m3u8") return notFoundResponse();
  return fileResponse(path.join(mediaDir(), "recordings", sessionId, file), req, {
    cacheControl: file === "index.m3u8" ? "no-cache" : "public, max-age=31536000, immutable",
  });
}

export const HEAD = GET;
