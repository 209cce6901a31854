import { fileResponse, notFoundResponse } from "@/lib/api/files";
import { assetForPlayback, localFile } from "@/lib/assets/files";

/** An asset's mp4 download ({CDN_URL}/asset/{playbackId}/video), with range requests. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await ctx.params;
  const asset = /^[\w-]{1,64}$/.test(playbackId) ? await assetForPlayback(playbackId) : undefined;
  const file = asset?.files?.mp4 && localFile(asset.files.mp4);
  if (!file) return notFoundResponse();
  return fileResponse(file, req, { cacheControl: "public, max-age=31536000, immutable", contentType: "video/mp4" });
}

export const HEAD = GET;
