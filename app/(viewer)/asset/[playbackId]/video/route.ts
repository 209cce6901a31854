import { preflight } from "@/lib/api/cors";
import { downloadName } from "@/lib/api/download-name";
import { assetFileResponse, IMMUTABLE } from "@/lib/api/files";
import { containerNamed } from "@/lib/av/containers";

/**
 * An asset's original file as uploaded ({CDN_URL}/asset/{playbackId}/video), with range requests,
 * its container's content type, and a download named after the asset.
 */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await ctx.params;
  return assetFileResponse(req, playbackId, (f) => f.source, (asset) => {
    const container = containerNamed(asset.videoSpec?.format);
    return { cacheControl: IMMUTABLE, contentType: container.contentType, filename: downloadName(asset.name, container.format) };
  });
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
