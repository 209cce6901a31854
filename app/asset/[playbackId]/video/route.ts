import { preflight } from "@/lib/api/cors";
import { assetFileResponse, IMMUTABLE } from "@/lib/api/files";
import type { VideoSpec } from "@/lib/assets/schema";
import { containerNamed } from "@/lib/media/containers";

/** An asset's original file as uploaded ({CDN_URL}/asset/{playbackId}/video), with range requests and its container's content type. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await ctx.params;
  return assetFileResponse(req, playbackId, (f) => f.source, (asset) => ({
    cacheControl: IMMUTABLE,
    contentType: containerNamed((asset.videoSpec as VideoSpec | null)?.format).contentType,
  }));
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
