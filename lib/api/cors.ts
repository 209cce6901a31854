import { EMBED_GRANT_HEADER, EMBEDDERS_HEADER } from "@/lib/access/sites";

/**
 * Cross-origin access, in one place. "public": what players and embeds on any site read
 * (playback info, media files, the API document). "upload": the pre-signed and tus upload
 * endpoints that browsers call from other sites without credentials. "key": what a web page
 * may call with a CORS-enabled API key (one listing the page's origin in allowedOrigins; the
 * pipeline refuses any other key from another origin); the answer names the page's origin.
 * Every answer, errors included, carries the headers, or the browser hides the reason from the page.
 */
const RATE_LIMIT_HEADERS = "ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after";

export const CORS = {
  public: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, HEAD, OPTIONS",
    // The viewer's credentials of gated content (lib/access/gate.ts), and seeking; the player page's
    // embed grant, which a sandboxed frame sends from an opaque origin, to be refused with a reason.
    "access-control-allow-headers": `livepeer-jwt, livepeer-access-key, range, ${EMBED_GRANT_HEADER}, ${EMBEDDERS_HEADER}`,
    "access-control-expose-headers": `content-length, content-range, ${RATE_LIMIT_HEADERS}`,
  },
  upload: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "PUT, POST, PATCH, HEAD, OPTIONS, DELETE",
    "access-control-allow-headers":
      "content-type, authorization, tus-resumable, upload-length, upload-metadata, upload-offset, upload-defer-length, upload-concat, x-http-method-override, x-requested-with",
    "access-control-expose-headers": `etag, location, tus-resumable, tus-version, tus-max-size, tus-extension, upload-offset, upload-length, upload-metadata, ${RATE_LIMIT_HEADERS}`,
    "access-control-max-age": "86400",
  },
  key: {
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-expose-headers": RATE_LIMIT_HEADERS,
    "access-control-max-age": "600",
    vary: "origin",
  },
} as const;

export type CorsPolicy = keyof typeof CORS;

function corsHeaders(policy: CorsPolicy, req: Request): Record<string, string> {
  const origin = req.headers.get("origin");
  return policy === "key" && origin ? { ...CORS.key, "access-control-allow-origin": origin } : { ...CORS[policy] };
}

/**
 * The answer as it leaves, with the policy's headers (a Response's own headers may be
 * immutable). An origin the handler allowed itself (a playback policy's allowedOrigins) stands.
 */
export function withCorsHeaders(res: Response, policy: CorsPolicy | undefined, req: Request): Response {
  if (!policy) return res;
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(corsHeaders(policy, req))) {
    if (k !== "access-control-allow-origin" || !out.headers.has(k)) out.headers.set(k, v);
  }
  return out;
}

/** OPTIONS for a route whose operations browsers call from other sites. */
export const preflight = (policy: CorsPolicy) => (req: Request) => new Response(null, { status: 204, headers: corsHeaders(policy, req) });
