import { preflight } from "@/lib/api/cors";
import { assetFileResponse } from "@/lib/api/files";

/** A frame of the asset, for libraries and players' posters. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await ctx.params;
  return assetFileResponse(req, playbackId, (f) => f.thumbnail, { cacheControl: "public, max-age=86400", contentType: "image/jpeg" });
}

export const HEAD = GET;

/** Players on other sites send the viewer's credentials as headers (Livepeer-Jwt, Livepeer-Access-Key). */
export const OPTIONS = preflight("public");
