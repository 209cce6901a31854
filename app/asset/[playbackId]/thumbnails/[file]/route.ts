import { assetFileResponse, notFoundResponse } from "@/lib/api/files";

/** The seek-preview track: thumbnails.vtt and the sprite sheets its cues point into. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; file: string }> }) {
  const { playbackId, file } = await ctx.params;
  const vtt = file === "thumbnails.vtt";
  if (!vtt && !/^sprite_\d{3,5}\.jpg$/.test(file)) return notFoundResponse();
  return assetFileResponse(req, playbackId, (f) => (f.thumbnailsVtt ? f.thumbnailsVtt.replace(/thumbnails\.vtt$/, file) : undefined), {
    cacheControl: "public, max-age=86400",
    contentType: vtt ? "text/vtt" : "image/jpeg",
  });
}

export const HEAD = GET;
