import { preflight } from "@/lib/api/cors";
import { admitViewer } from "@/lib/access/gate";
import { vttWithToken } from "@/lib/access/token";
import { notFoundResponse, objectResponse, textResponse } from "@/lib/api/files";
import { assetForPlayback } from "@/lib/assets/files";
import { readText } from "@/lib/live/playback";

const DAY = "public, max-age=86400";

/** The seek-preview track: thumbnails.vtt and the sprite sheets its cues point into. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; file: string }> }) {
  const { playbackId, file } = await ctx.params;
  const vtt = file === "thumbnails.vtt";
  if (!vtt && !/^sprite_\d{3,5}\.jpg$/.test(file)) return notFoundResponse();
  const asset = await assetForPlayback(playbackId);
  if (!asset) return notFoundResponse();
  const admission = await admitViewer(req, asset);
  if (!admission.ok) return admission.response;
  const key = asset.files?.thumbnailsVtt?.replace(/thumbnails\.vtt$/, file);
  if (!key) return notFoundResponse();
  if (vtt && admission.token) {
    // The cues name the sprites relatively: each needs the viewer's token too.
    const track = await readText(key);
    return track ? admission.answer(textResponse(vttWithToken(track, admission.token), "text/vtt", DAY)) : notFoundResponse();
  }
  return admission.answer(await objectResponse(key, req, { cacheControl: DAY, contentType: vtt ? "text/vtt" : "image/jpeg" }));
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
