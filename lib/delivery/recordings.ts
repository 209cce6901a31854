import { admitViewer } from "@/lib/access/gate";
import { sourceKey } from "@/lib/assets/keys";
import { contentDisposition, downloadName } from "@/lib/api/download-name";
import { recordingKey } from "@/lib/live/keys";
import { SAFE_NAME } from "@/lib/live/playback";
import { recording, recordingFile, recordingIndex } from "./content";
import { admitted, playlistReply } from "./live";
import { CONTENT_TYPES, IMMUTABLE, notFound, type Reply, type ViewerRequest } from "./reply";
import { objectReply } from "./stored";

/**
 * A session's recording, for viewers its policy admits: its asset's once it is one, as at
 * /asset/<playbackId>/ (lib/access/recording.ts); credentials name the asset's playback id or
 * the stream's. index.m3u8 (built from the segments stored, every part of the session), the
 * segments (<epoch>/<file>), and video.mp4 once the recording became an asset. Public
 * recordings need nothing but the session id, as the recordingUrl and mp4Url handed out.
 */
export async function recordingFiles(req: ViewerRequest, sessionId: string, parts: string[]): Promise<Reply> {
  if (![sessionId, ...parts].every((p) => SAFE_NAME.test(p))) return notFound();
  const content = await recording(sessionId);
  if (!content) return notFound();
  const admission = await admitViewer(req, content);
  if (!admission.ok) return admission.reply;
  const [first, second] = parts;
  if (parts.length === 1 && first === "index.m3u8") {
    const playlist = await recordingIndex(sessionId);
    return playlist ? playlistReply(admission, playlist, "no-cache") : notFound();
  }
  if (parts.length === 1 && first === "video.mp4") {
    const mp4 = await recordingFile(sessionId);
    if (!mp4) return notFound();
    // Named after the recording's asset, as its own download is.
    const disposition = contentDisposition(downloadName(mp4.name, "mp4"));
    return admitted(admission, await objectReply(req, sourceKey(mp4.assetId), { cacheControl: IMMUTABLE, contentType: CONTENT_TYPES.mp4, disposition }));
  }
  if (parts.length === 2 && /^\d+$/.test(first) && second.endsWith(".ts")) {
    return admitted(admission, await objectReply(req, recordingKey(sessionId, Number(first), second), { cacheControl: IMMUTABLE }));
  }
  return notFound();
}
