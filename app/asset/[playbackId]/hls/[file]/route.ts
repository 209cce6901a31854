import { assetFileResponse, IMMUTABLE } from "@/lib/api/files";

const FILE = /^(index\.m3u8|seg_\d{5}\.ts)$/;

/** An asset's HLS (the playbackUrl): its playlist and segments never change once written. */
export async function GET(req: Request, ctx: { params: Promise<{ playbackId: string; file: string }> }) {
  const { playbackId, file } = await ctx.params;
  return assetFileResponse(req, playbackId, (f) => (f.hls && FILE.test(file) ? `${f.hls}/${file}` : undefined), { cacheControl: IMMUTABLE });
}

export const HEAD = GET;
