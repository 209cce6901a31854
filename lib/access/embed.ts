import { assetForPlayback } from "@/lib/assets/files";
import { isOwnOrigin } from "@/lib/auth/origin";
import { streamForPlayback } from "@/lib/live/playback";

/**
 * Why the player page may not play here, when a policy's allowedOrigins leaves out the page
 * embedding it. The player's own requests come from this site, so the embedding page is
 * judged here, by the Referer of the frame's navigation (browsers send the parent's origin).
 * No Referer (a page that sends none, or the link opened directly) is not refused: the
 * playback policy's credentials still apply.
 */
export async function embedRefusal(playbackId: string, headers: Headers): Promise<string | undefined> {
  const referer = headers.get("referer");
  if (!referer || !/^[\w-]{1,64}$/.test(playbackId)) return undefined;
  let origin: string;
  try {
    origin = new URL(referer).origin;
  } catch {
    return undefined;
  }
  if (isOwnOrigin(origin, headers)) return undefined;
  const content = (await streamForPlayback(playbackId)) ?? (await assetForPlayback(playbackId));
  const allowed = content?.playbackPolicy?.allowedOrigins;
  return allowed?.length && !allowed.includes(origin) ? `this video cannot be played on ${origin}` : undefined;
}
