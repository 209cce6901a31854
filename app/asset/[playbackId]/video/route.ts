import { preflight } from "@/lib/api/cors";
import { downloadName } from "@/lib/api/download-name";
import { assetFileResponse, IMMUTABLE } from "@/lib/api/files";

/** An asset's original mp4 ({CDN_URL}/asset/{playbackId}/video), with range requests; a download is named after the asset. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await ctx.params;
  return assetFileResponse(req, playbackId, (f) => f.source, {
    cacheControl: IMMUTABLE,
    contentType: "video/mp4",
    download: (asset) => downloadName(asset.name, "mp4"),
  });
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
