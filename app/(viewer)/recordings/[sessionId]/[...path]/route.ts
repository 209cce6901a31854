import { preflight } from "@/lib/api/cors";
import { admitViewer } from "@/lib/access/gate";
import { playlistWithToken } from "@/lib/access/token";
import { sourceKey } from "@/lib/assets/keys";
import { downloadName } from "@/lib/api/download-name";
import { CONTENT_TYPES, IMMUTABLE, notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { recordingKey } from "@/lib/live/keys";
import { recordingMp4, recordingOf, recordingPlaylist, SAFE_NAME } from "@/lib/live/playback";

/**
 * A session's recording, for viewers its policy admits: its asset's once it is one, as at
 * /asset/<playbackId>/ (lib/access/recording.ts); credentials name the asset's playback id or
 * the stream's. index.m3u8 (built from the segments stored, every part of the session), the
 * segments (<epoch>/<file>), and video.mp4 once the recording became an asset. Public
 * recordings need nothing but the session id, as the recordingUrl and mp4Url handed out.
 */
export async function GET(req: Request, ctx: { params: Promise<{ sessionId: string; path: string[] }> }) {
  const { sessionId, path: parts } = await ctx.params;
  if (![sessionId, ...parts].every((p) => SAFE_NAME.test(p))) return notFoundResponse();
  const recording = await recordingOf(sessionId);
  if (!recording) return notFoundResponse();
  const admission = await admitViewer(req, recording);
  if (!admission.ok) return admission.response;
  const [first, second] = parts;
  if (parts.length === 1 && first === "index.m3u8") {
    const playlist = await recordingPlaylist(sessionId);
    if (!playlist) return notFoundResponse();
    return admission.answer(textResponse(admission.token ? playlistWithToken(playlist, admission.token) : playlist, CONTENT_TYPES.m3u8, "no-cache"));
  }
  if (parts.length === 1 && first === "video.mp4") {
    const mp4 = await recordingMp4(sessionId);
    if (!mp4) return notFoundResponse();
    // Named after the recording's asset, as its own download is.
    const filename = downloadName(mp4.name, "mp4");
    return admission.answer(await objectResponse(sourceKey(mp4.assetId), req, { cacheControl: IMMUTABLE, contentType: CONTENT_TYPES.mp4, filename }));
  }
  if (parts.length === 2 && /^\d+$/.test(first) && second.endsWith(".ts")) {
    return admission.answer(await objectResponse(recordingKey(sessionId, Number(first), second), req, { cacheControl: IMMUTABLE }));
  }
  return notFoundResponse();
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
