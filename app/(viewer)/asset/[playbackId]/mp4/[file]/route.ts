import { preflight } from "@/lib/api/cors";
import { admitViewer } from "@/lib/access/gate";
import { assetForPlayback } from "@/lib/assets/files";
import { renditionsOf } from "@/lib/assets/service";
import { downloadName } from "@/lib/api/download-name";
import { IMMUTABLE, notFoundResponse, objectResponse } from "@/lib/api/files";

/** A static MP4 rendition (<rendition>.mp4), with range requests; a download is named after the asset and the rendition. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; file: string }> }) {
  const { playbackId, file } = await ctx.params;
  const name = /^(\w[\w.-]{0,63})\.mp4$/.exec(file)?.[1];
  const asset = name ? await assetForPlayback(playbackId) : undefined;
  if (!asset) return notFoundResponse();
  const admission = await admitViewer(req, asset);
  if (!admission.ok) return admission.response;
  const rendition = (await renditionsOf(asset.id)).find((r) => r.name === name);
  if (!rendition?.mp4Key) return notFoundResponse();
  return admission.answer(
    await objectResponse(rendition.mp4Key, req, { cacheControl: IMMUTABLE, contentType: "video/mp4", filename: downloadName(asset.name, "mp4", name) }),
  );
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
