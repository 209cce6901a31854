import { decodeJwt, errors as joseErrors, jwtVerify } from "jose";
import { isOwnOrigin } from "@/lib/auth/origin";
import { config } from "@/lib/config";
import type { PlaybackPolicy } from "./schema";
import { markSigningKeySeen, verificationKey } from "./signing-keys";
import { checkPlaybackToken, playbackToken, TOKEN_PARAM } from "./token";
import { askAccessWebhook } from "./webhook-policy";

/** What is watched: the playback id its policy's credentials name, its owner, its policy. */
export interface GatedContent {
  playbackId: string;
  userId: string;
  playbackPolicy: PlaybackPolicy | null;
}

export type Admission =
  | {
      ok: true;
      /** The token the URLs handed to this viewer carry (gated content only). */
      token?: string;
      /** The answer with the CORS and caching this content needs. */
      answer(res: Response): Response;
    }
  | { ok: false; response: Response };

/**
 * Whether this request may watch this content, for every playback path (the playback
 * info, playlists, segments, files, thumbnails, captions) of live streams, recordings and
 * assets. Public content without allowed origins costs nothing; gated content admits:
 * - a playback token (`tkn`) of this playback id, not expired: the URLs of an admission;
 * - "jwt": an ES256 JWT (`?jwt=` or Livepeer-Jwt) with sub = the playback id, an exp, and
 *   `pub` naming an enabled signing key of the owner;
 * - "webhook": an access key (`?accessKey=` or Livepeer-Access-Key) the owner's webhook admits;
 * - the owner, signed in to the dashboard.
 * 401 without a credential, 403 with a bad one, a short JSON reason; never a 5xx.
 */
export async function admitViewer(req: Request, content: GatedContent): Promise<Admission> {
  const policy = content.playbackPolicy;
  const origin = requestOrigin(req);
  const allowed = policy?.allowedOrigins;
  if (allowed?.length && origin && !allowed.includes(origin) && !isOwnOrigin(origin, req.headers)) {
    return deny(403, `this content may not be played on ${origin}`, origin);
  }
  const cors = allowed?.length ? origin : undefined;
  if (!policy || policy.type === "public") return admitted(undefined, cors);

  const url = new URL(req.url);
  const given = url.searchParams.get(TOKEN_PARAM);
  if (given) {
    const check = checkPlaybackToken(given, content.playbackId);
    if (check === "valid") return admitted(given, cors);
    if (!credentialOf(req, policy)) return deny(403, check === "expired" ? "the playback token expired: ask for the playback info again" : "the playback token is not valid for this content", cors);
  }
  if (await isOwner(req, content.userId)) return admitted(playbackToken(content.playbackId, config().PLAYBACK_TOKEN_TTL_S), cors);

  const credential = credentialOf(req, policy);
  if (!credential) {
    const how = policy.type === "jwt" ? "a viewing token (?jwt= or the Livepeer-Jwt header)" : "an access key (?accessKey= or the Livepeer-Access-Key header)";
    return deny(401, `this content is private: ${how} is needed`, cors);
  }
  const verdict = policy.type === "jwt" ? await checkJwt(credential, content) : await askAccessWebhook(content.userId, policy, content.playbackId, credential);
  if (!verdict.admitted) return deny(403, verdict.reason, cors);
  const ttlS = Math.min(verdict.ttlS ?? Infinity, config().PLAYBACK_TOKEN_TTL_S);
  return admitted(playbackToken(content.playbackId, ttlS), cors);
}

function credentialOf(req: Request, policy: PlaybackPolicy): string | undefined {
  const url = new URL(req.url);
  const value =
    policy.type === "jwt"
      ? (url.searchParams.get("jwt") ?? req.headers.get("livepeer-jwt"))
      : (url.searchParams.get("accessKey") ?? req.headers.get("livepeer-access-key"));
  return value?.trim() || undefined;
}

type Verdict = { admitted: true; ttlS?: number } | { admitted: false; reason: string };

async function checkJwt(jwt: string, content: GatedContent): Promise<Verdict> {
  let pub: unknown;
  try {
    pub = decodeJwt(jwt).pub;
  } catch {
    return { admitted: false, reason: "the JWT is malformed" };
  }
  if (typeof pub !== "string" || pub.length > 1000) return { admitted: false, reason: "the JWT has no `pub` claim naming its signing key" };
  const found = await verificationKey(content.userId, pub);
  if (!found) return { admitted: false, reason: "the JWT is not signed by a signing key of this content's owner" };
  if (found === "disabled") return { admitted: false, reason: "the JWT's signing key is disabled" };
  try {
    const { payload } = await jwtVerify(jwt, found.key, { algorithms: ["ES256"], requiredClaims: ["exp", "sub"] });
    if (payload.sub !== content.playbackId) return { admitted: false, reason: "the JWT is for another playback id" };
    if (payload.action !== undefined && payload.action !== "pull") return { admitted: false, reason: 'the JWT\'s action is not "pull"' };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return { admitted: false, reason: "the JWT expired" };
    if (err instanceof joseErrors.JWTClaimValidationFailed) return { admitted: false, reason: `the JWT's ${err.claim} claim is not valid` };
    return { admitted: false, reason: "the JWT's signature is not valid" };
  }
  markSigningKeySeen(found.id);
  return { admitted: true };
}

/** The creator watching their own content in the dashboard. */
async function isOwner(req: Request, ownerId: string): Promise<boolean> {
  if (!req.headers.get("cookie")?.includes("authjs.session-token")) return false;
  // Loaded when a session may be there: Auth.js reads the configuration as it loads, and the
  // media routes (and the code importing them) should not.
  const { auth } = await import("@/lib/auth");
  const session = await auth().catch(() => null);
  return session?.user?.id === ownerId;
}

/** The page's origin: `Origin` on CORS requests, else the Referer's (media elements, images). */
function requestOrigin(req: Request): string | undefined {
  const origin = req.headers.get("origin");
  if (origin && origin !== "null") return origin;
  const referer = req.headers.get("referer");
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin ? { "access-control-allow-origin": origin, vary: "Origin" } : {};
}

function admitted(token: string | undefined, corsOrigin: string | undefined): Admission {
  if (!token && !corsOrigin) return { ok: true, answer: (res) => res };
  return {
    ok: true,
    token,
    answer(res) {
      const out = new Response(res.body, res);
      for (const [k, v] of Object.entries(corsHeaders(corsOrigin))) out.headers.set(k, v);
      // What one viewer was admitted to is not for shared caches to hand to others.
      if (token) out.headers.set("cache-control", privately(out.headers.get("cache-control")));
      return out;
    },
  };
}

function privately(cacheControl: string | null): string {
  if (!cacheControl) return "private";
  if (/\bpublic\b/.test(cacheControl)) return cacheControl.replace(/\bpublic\b/, "private");
  return /\b(private|no-store)\b/.test(cacheControl) ? cacheControl : `private, ${cacheControl}`;
}

function deny(status: 401 | 403, reason: string, corsOrigin: string | undefined): Admission {
  const headers = {
    "access-control-allow-origin": corsOrigin ?? "*",
    "cache-control": "no-store",
    ...(corsOrigin ? { vary: "Origin" } : {}),
  };
  return { ok: false, response: Response.json({ errors: [reason] }, { status, headers }) };
}
