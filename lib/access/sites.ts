/**
 * The rule of a playback policy's allowedOrigins, for everything that plays (the player page, the
 * playback info, playlists, segments, files): which page a request comes from, and whether that
 * page may play. Pure, and safe for the browser bundle (the player reads the header names).
 */

/** The player page's embed grant travels in this header, never in a URL: no other site's page can make a browser send it. */
export const EMBED_GRANT_HEADER = "castline-embed-grant";

/** The origins of the frames around the player page (`location.ancestorOrigins`, innermost first), where the browser tells them. */
export const EMBEDDERS_HEADER = "castline-embedders";

/** How many frames around the player page are looked at: real pages nest a few. */
const MAX_EMBEDDERS = 16;

/**
 * The page a request comes from, as the browser names it: `Origin` (CORS requests; "null" from an
 * opaque page: a sandboxed frame, a data: URL), else the Referer's origin (media elements, images,
 * frames' navigations); undefined when it names none (a no-referrer page, a program).
 */
export function pageOrigin(headers: { get(name: string): string | null }): string | undefined {
  const origin = headers.get("origin");
  if (origin) return origin;
  const referer = headers.get("referer");
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * "allowed": one of allowedOrigins. "refused": another site's page, or an opaque one ("null").
 * "unnamed": no page named, or one of this deployment's own, which any site may frame (the player
 * page): such a request must show it comes from an allowed embedding (a playback token handed out
 * by an admission, the player page's embed grant) or from the owner.
 */
export type SiteVerdict = "allowed" | "refused" | "unnamed";

export function judgeSite(allowed: readonly string[], site: string | undefined, isOwn: (origin: string) => boolean): SiteVerdict {
  if (site === undefined) return "unnamed";
  if (allowed.includes(site)) return "allowed";
  return site !== "null" && isOwn(site) ? "unnamed" : "refused";
}

/** The first frame around the player page that is neither allowed nor this deployment's own, if any. */
export function outsideEmbedder(allowed: readonly string[], embedders: string | null, isOwn: (origin: string) => boolean): string | undefined {
  const origins = (embedders ?? "").split(" ").filter(Boolean).slice(0, MAX_EMBEDDERS);
  return origins.find((origin) => judgeSite(allowed, origin, isOwn) === "refused");
}

/** Why a page may not play: another site's, an opaque one, or none named. */
export function siteRefusal(site: string | undefined): string {
  if (site === "null") return "this content may not be played in a sandboxed or opaque page (Origin: null)";
  if (site === undefined) return "this content plays only on the sites its owner allows, and the request names no site (no Origin or Referer)";
  return `this content may not be played on ${site}`;
}
