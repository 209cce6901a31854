import { notFound } from "@/lib/api/errors";
import { route } from "@/lib/api/route";
import { liveSessionFor, streamForPlayback } from "@/lib/live/playback";
import { publicOrigin } from "@/lib/live/origin";

const CORS = { "access-control-allow-origin": "*" };

/** Playback info for players (no auth, CORS open), in Livepeer's shape. */
export const GET = route({ auth: "none" }, async ({ params }) => {
  const stream = await streamForPlayback(params.playbackId);
  if (!stream) throw notFound("playback id");
  const live = Boolean(await liveSessionFor(stream.playbackId));
  const source = live
    ? [{ hrn: "HLS (TS)", type: "html5/application/vnd.apple.mpegurl", url: `${publicOrigin()}/hls/${stream.playbackId}/index.m3u8` }]
    : [];
  return Response.json({ type: "live", meta: { live: live ? 1 : 0, source } }, { headers: { ...CORS, "cache-control": "no-cache" } });
});

export function OPTIONS() {
  return new Response(null, { status: 204, headers: { ...CORS, "access-control-allow-methods": "GET, OPTIONS" } });
}
