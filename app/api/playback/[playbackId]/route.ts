import { notFound } from "@/lib/api/errors";
import { route } from "@/lib/api/route";
import { assetForPlayback } from "@/lib/assets/files";
import { serializeAsset } from "@/lib/assets/service";
import { liveSessionFor, streamForPlayback } from "@/lib/live/playback";
import { publicOrigin } from "@/lib/origin";

const CORS = { "access-control-allow-origin": "*" };
const HLS = { hrn: "HLS (TS)", type: "html5/application/vnd.apple.mpegurl" };
const MP4 = { hrn: "MP4", type: "html5/video/mp4" };

/** Playback info for players (no auth, CORS open), in Livepeer's shape: live streams, recordings, assets. */
export const GET = route({ auth: "none" }, async ({ params }) => {
  const origin = publicOrigin();
  const stream = await streamForPlayback(params.playbackId);
  let info;
  if (stream) {
    const live = Boolean(await liveSessionFor(stream.playbackId));
    const source = live ? [{ ...HLS, url: `${origin}/hls/${stream.playbackId}/index.m3u8` }] : [];
    info = { type: "live", meta: { live: live ? 1 : 0, source } };
  } else {
    const row = await assetForPlayback(params.playbackId);
    if (!row || row.phase !== "ready") throw notFound("playback id");
    const asset = serializeAsset(row);
    const source = [
      ...(asset.playbackUrl ? [{ ...HLS, url: asset.playbackUrl }] : []),
      ...(asset.downloadUrl ? [{ ...MP4, url: asset.downloadUrl }] : []),
    ];
    info = { type: asset.source.type === "recording" ? "recording" : "vod", meta: { live: 0, source } };
  }
  return Response.json(info, { headers: { ...CORS, "cache-control": "no-cache" } });
});

export function OPTIONS() {
  return new Response(null, { status: 204, headers: { ...CORS, "access-control-allow-methods": "GET, OPTIONS" } });
}
