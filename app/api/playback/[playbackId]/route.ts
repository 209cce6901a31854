import { admitViewer } from "@/lib/access/gate";
import { preflight } from "@/lib/api/cors";
import { asResponse, viewerRequestOf } from "@/lib/delivery/reply";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { findPlayable, gatedContent, playbackInfo } from "@/lib/playback/service";

export const GET = route(operations.getPlaybackInfo, async ({ req, params }) => {
  const playable = await findPlayable(params.playbackId);
  const admission = await admitViewer(viewerRequestOf(req), gatedContent(playable));
  if (!admission.ok) return asResponse(admission.reply);
  return admission.answer(Response.json(await playbackInfo(req, playable, admission.token), { headers: { "cache-control": "no-cache" } }));
});

export const OPTIONS = preflight("public");
