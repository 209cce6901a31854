import { decodeJwt, errors as joseErrors, jwtVerify } from "jose";
import { isOwnOrigin } from "@/lib/auth/origin";
import { signedInUserId } from "@/lib/auth/session-cookie";
import { json, type Reply, type ViewerRequest } from "@/lib/delivery/reply";
import { config } from "@/lib/config";
import type { PlaybackType } from "@/lib/playback/schema";
import { CHECK_RETRY_AFTER_S, REFUSAL_STATUS, type ViewerRefusal } from "./refusal";
import type { PlaybackPolicy } from "./schema";
import { markSigningKeySeen, verificationKey } from "./signing-keys";
import { checkPlaybackToken, playbackToken, playbackTokenExpiry, TOKEN_PARAM } from "./token";
import { EMBED_GRANT_HEADER, EMBEDDERS_HEADER, judgeSite, outsideEmbedder, pageOrigin, siteRefusal } from "./sites";
import { askAccessWebhook } from "./webhook-policy";

/** What is watched: the playback id its policy's credentials name, its owner, its policy. */
export interface GatedContent {
  /** The playback id a viewer's credential names (a JWT's `sub`); the access webhook is told it. */
  playbackId: string;
  /** Other playback ids a viewer's JWT may name for the same content: a recording's stream's. */
  otherPlaybackIds?: readonly string[];
  /** What its playback tokens are bound to, when not its playback id: a recording's own URLs. */
  tokenSubject?: string;
  userId: string;
  playbackPolicy: PlaybackPolicy | null;
  /** What it is, named in a refusal so that a player says what it refuses (a stream, a video). */
  playbackType?: PlaybackType;
}

export type Admission =
  | {
      ok: true;
      /** The token the URLs handed to this viewer carry (gated content, or content with allowed origins). */
      token?: string;
      /**
       * Until when (ms) every request of this URL is admitted alike: an answer made for one is the
       * answer for all. Public content without allowed origins: for ever (Infinity); gated content
       * admitted by the playback token in its URL alone: until the token expires.
       */
      sharedUntil?: number;
      /** An answer's headers with the CORS and caching this content needs. */
      headers(own: Record<string, string>): Record<string, string>;
      /** The answer (a fetch Response) with the CORS and caching this content needs. */
      answer(res: Response): Response;
    }
  | { ok: false; reply: Reply };

/**
 * How long the player page's embed grant lasts. It only stands in for the Referer the page was
 * loaded with, in that page's own requests: another site's page names its own origin and is
 * refused whatever it carries, and the header cannot be put in a link. A player left open longer
 * is asked to reload.
 */
const EMBED_GRANT_TTL_S = 24 * 3600;

const embedSubject = (playbackId: string) => `embed:${playbackId}`;

/** What the player page, loaded by an allowed embedding site (lib/access/embed.ts), proves that with. */
export const embedGrant = (playbackId: string) => playbackToken(embedSubject(playbackId), EMBED_GRANT_TTL_S);

/**
 * Whether this request may watch this content, for every playback path (the playback
 * info, playlists, segments, files, thumbnails, captions) of live streams, recordings and
 * assets. Public content without allowed origins costs nothing. With allowedOrigins (any type),
 * a page of another site, an opaque page (`Origin: null`), or a request naming no page at all
 * is refused, unless it shows it comes from an allowed embedding (lib/access/sites.ts): a playback
 * token (`tkn`, handed out by such an admission), the player page's embed grant, or the owner.
 * Gated content admits:
 * - a playback token (`tkn`) of this content, not expired: the URLs of an admission;
 * - "jwt": an ES256 JWT (`?jwt=` or Livepeer-Jwt) with sub = the playback id, an exp, and
 *   `pub` naming an enabled signing key of the owner;
 * - "webhook": an access key (`?accessKey=` or Livepeer-Access-Key) the owner's webhook admits;
 * - the owner, signed in to the dashboard.
 * A refusal answers `{"errors": [detail], "refusal": <why>}` (lib/access/refusal.ts): 401 without a
 * credential, 403 with a bad or expired one, 503 when the owner's access webhook failed (nobody
 * refused: try again later).
 */
export async function admitViewer(req: ViewerRequest, content: GatedContent): Promise<Admission> {
  const policy = content.playbackPolicy;
  const allowed = policy?.allowedOrigins ?? [];
  if ((!policy || policy.type === "public") && !allowed.length) return OPEN;

  const subject = content.tokenSubject ?? content.playbackId;
  const given = req.query.get(TOKEN_PARAM);
  const tokenCheck = given ? checkPlaybackToken(given, subject) : undefined;
  const tokenRefusal: Refused =
    tokenCheck === "expired"
      ? { refusal: "expired", reason: "the playback token expired: ask for the playback info again" }
      : { refusal: "refused", reason: "the playback token is not valid for this content" };
  let owner: Promise<boolean> | undefined;
  const byOwner = () => (owner ??= isOwner(req, content.userId));
  const ttlS = config().PLAYBACK_TOKEN_TTL_S;

  const deny = (refused: Refused, corsOrigin: string | undefined) => denied(refused, content.playbackType, corsOrigin);

  let cors: string | undefined;
  if (allowed.length) {
    const site = pageOrigin(req.headers);
    const verdict = judgeSite(allowed, site, (origin) => isOwnOrigin(origin, req.headers));
    if (verdict === "allowed") cors = site;
    else if (verdict === "refused") return deny(notHere(siteRefusal(site)), site === "null" ? undefined : site);
    else if (tokenCheck !== "valid") {
      const grant = req.headers.get(EMBED_GRANT_HEADER);
      const refusal = grant
        ? embeddingRefusal(req, grant, content, allowed)
        : (await byOwner())
          ? undefined
          : given
            ? tokenRefusal
            : notHere(siteRefusal(undefined));
      if (refusal) return deny(refusal, undefined);
    }
  }
  const admit = (token: string) => admitted(token, cors, allowed.length > 0);
  if (!policy || policy.type === "public") return admit(tokenCheck === "valid" ? given! : playbackToken(subject, ttlS));

  if (given) {
    // Nothing but the URL's token admitted it: anyone asking this URL is admitted alike until it expires.
    if (tokenCheck === "valid") return { ...admit(given), ...(allowed.length ? {} : { sharedUntil: playbackTokenExpiry(given) }) };
    if (!credentialOf(req, policy)) return deny(tokenRefusal, cors);
  }
  if (await byOwner()) return admit(playbackToken(subject, ttlS));

  const credential = credentialOf(req, policy);
  if (!credential) {
    const how = policy.type === "jwt" ? "a viewing token (?jwt= or the Livepeer-Jwt header)" : "an access key (?accessKey= or the Livepeer-Access-Key header)";
    return deny({ refusal: "credential-needed", reason: `this content is private: ${how} is needed` }, cors);
  }
  const verdict = policy.type === "jwt" ? await checkJwt(credential, content) : await askAccessWebhook(content.userId, policy, content.playbackId, credential);
  if (!verdict.admitted) return deny(verdict, cors);
  return admit(playbackToken(subject, Math.min(verdict.ttlS ?? Infinity, ttlS)));
}

/**
 * Why the player page's requests, which name this site, may not play: its embed grant says an
 * allowed site loaded it, and the frames around it, where the browser tells them, must all be
 * allowed too (a page of an allowed site framed by another is not).
 */
function embeddingRefusal(req: ViewerRequest, grant: string, content: GatedContent, allowed: readonly string[]): Refused | undefined {
  const check = checkPlaybackToken(grant, embedSubject(content.playbackId));
  // The viewer's link did not expire: the page only needs loading again.
  if (check === "expired") return { refusal: "refused", reason: "this player page was opened too long ago: reload it" };
  if (check !== "valid") return { refusal: "refused", reason: "the player page's embed grant is not valid for this content" };
  const outsider = outsideEmbedder(allowed, req.headers.get(EMBEDDERS_HEADER), (origin) => isOwnOrigin(origin, req.headers));
  return outsider ? notHere(siteRefusal(outsider)) : undefined;
}

/** Why a viewer is refused, and the detail. */
type Refused = { refusal: ViewerRefusal; reason: string };

const notHere = (reason: string): Refused => ({ refusal: "site-not-allowed", reason });

function credentialOf(req: ViewerRequest, policy: PlaybackPolicy): string | undefined {
  const value =
    policy.type === "jwt" ? (req.query.get("jwt") ?? req.headers.get("livepeer-jwt")) : (req.query.get("accessKey") ?? req.headers.get("livepeer-access-key"));
  return value?.trim() || undefined;
}

type Verdict = { admitted: true; ttlS?: number } | ({ admitted: false } & Refused);

async function checkJwt(jwt: string, content: GatedContent): Promise<Verdict> {
  const no = (reason: string): Verdict => ({ admitted: false, refusal: "refused", reason });
  let pub: unknown;
  try {
    pub = decodeJwt(jwt).pub;
  } catch {
    return no("the JWT is malformed");
  }
  if (typeof pub !== "string" || pub.length > 1000) return no("the JWT has no `pub` claim naming its signing key");
  const found = await verificationKey(content.userId, pub);
  if (!found) return no("the JWT is not signed by a signing key of this content's owner");
  if (found === "disabled") return no("the JWT's signing key is disabled");
  try {
    const { payload } = await jwtVerify(jwt, found.key, { algorithms: ["ES256"], requiredClaims: ["exp", "sub"] });
    if (payload.sub !== content.playbackId && !content.otherPlaybackIds?.includes(payload.sub!)) return no("the JWT is for another playback id");
    if (payload.action !== undefined && payload.action !== "pull") return no('the JWT\'s action is not "pull"');
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return { admitted: false, refusal: "expired", reason: "the JWT expired" };
    if (err instanceof joseErrors.JWTClaimValidationFailed) return no(`the JWT's ${err.claim} claim is not valid`);
    return no("the JWT's signature is not valid");
  }
  markSigningKeySeen(found.id);
  return { admitted: true };
}

/** The creator watching their own content in the dashboard. */
async function isOwner(req: ViewerRequest, ownerId: string): Promise<boolean> {
  return (await signedInUserId(req.headers)) === ownerId;
}

/** Public content without allowed origins: anyone, anywhere, and its answers are for shared caches too. */
const OPEN: Admission = { ok: true, sharedUntil: Infinity, headers: (own) => own, answer: (res) => res };

/**
 * An admission's answer, for the viewer its token was handed to. `corsOrigin`: the allowed page
 * to name in CORS. `byPage`: the admission depended on the page (allowedOrigins), so a browser's
 * cache must not hand the answer made for one page to another (sites under one domain share one).
 */
function admitted(token: string, corsOrigin: string | undefined, byPage: boolean): Admission {
  const headers = (own: Record<string, string>) => {
    const out = { ...own };
    if (corsOrigin) out["access-control-allow-origin"] = corsOrigin;
    if (corsOrigin || byPage) out.vary = byPage ? "Origin, Referer" : "Origin";
    // What one viewer was admitted to is not for shared caches to hand to others.
    out["cache-control"] = privately(own["cache-control"] ?? null);
    return out;
  };
  return {
    ok: true,
    token,
    headers,
    answer: (res) => new Response(res.body, { status: res.status, statusText: res.statusText, headers: headers(Object.fromEntries(res.headers)) }),
  };
}

function privately(cacheControl: string | null): string {
  if (!cacheControl) return "private";
  if (/\bpublic\b/.test(cacheControl)) return cacheControl.replace(/\bpublic\b/, "private");
  return /\b(private|no-store)\b/.test(cacheControl) ? cacheControl : `private, ${cacheControl}`;
}

function denied({ refusal, reason }: Refused, playbackType: PlaybackType | undefined, corsOrigin: string | undefined): Admission {
  const headers = {
    "access-control-allow-origin": corsOrigin ?? "*",
    ...(corsOrigin ? { vary: "Origin" } : {}),
    ...(refusal === "check-unavailable" ? { "retry-after": String(CHECK_RETRY_AFTER_S) } : {}),
  };
  const body = { errors: [reason], refusal, ...(playbackType ? { type: playbackType } : {}) };
  return { ok: false, reply: json(REFUSAL_STATUS[refusal], body, headers) };
}
