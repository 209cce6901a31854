import { preflight } from "@/lib/api/cors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { playbackInfo } from "@/lib/playback/service";

export const GET = route(operations.getPlaybackInfo, ({ params }) => playbackInfo(params.playbackId));

export const OPTIONS = preflight("public");
