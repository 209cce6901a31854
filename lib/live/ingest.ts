import { z } from "zod";
import { config } from "@/lib/config";
import { publicOrigin } from "@/lib/origin";

export const Ingest = z
  .object({
    base: z.string().describe("the app's origin"),
    ingest: z.string().describe("RTMP server URL for encoders (OBS: Server); the stream key goes after it"),
    playback: z.string().describe("base of HLS playback URLs"),
  })
  .meta({ id: "Ingest" });

/**
 * Where encoders publish: the host viewers reach this deployment at (PUBLIC_URL's, else
 * the request's) on RTMP_PORT. Livepeer's /api/ingest shape.
 */
export function ingestFor(requestHost: string | null): z.infer<typeof Ingest>[] {
  const origin = publicOrigin();
  const host = config().PUBLIC_URL ? new URL(origin).hostname : (requestHost ?? "localhost").replace(/:\d+$/, "");
  return [{ base: origin, ingest: `rtmp://${host}:${config().RTMP_PORT}/live`, playback: `${origin}/hls` }];
}
