import { assetForPlayback } from "@/lib/assets/files";
import { isOwnOrigin } from "@/lib/auth/origin";
import { streamForPlayback } from "@/lib/live/playback";
import { embedGrant } from "./gate";
import { judgeSite, pageOrigin, siteRefusal } from "./sites";

export type EmbedAdmission = { refusal: string; kind: "stream" | "video"; grant?: undefined } | { refusal?: undefined; grant?: string };

/**
 * The player page, when a playback policy's allowedOrigins names where it may play. The page's
 * own requests come from this site, which any page may frame, so the embedding site is judged
 * here, by the Referer of the frame's navigation (browsers send the embedding page's origin):
 * an allowed one gets an embed grant, which the player sends with its playback-info requests
 * (lib/access/gate.ts); another site, an opaque page, or none named (a no-referrer frame, the
 * page opened directly) is refused, as the playback info itself would refuse it.
 */
export async function embedAdmission(playbackId: string, headers: Headers): Promise<EmbedAdmission> {
  if (!/^[\w-]{1,64}$/.test(playbackId)) return {};
  const stream = await streamForPlayback(playbackId);
  const content = stream ?? (await assetForPlayback(playbackId));
  const allowed = content?.playbackPolicy?.allowedOrigins;
  if (!allowed?.length) return {};
  const site = pageOrigin(headers);
  const verdict = judgeSite(allowed, site, (origin) => isOwnOrigin(origin, headers));
  if (verdict === "allowed") return { grant: embedGrant(playbackId) };
  return { refusal: siteRefusal(verdict === "refused" ? site : undefined), kind: stream ? "stream" : "video" };
}
