/**
 * Cross-origin access, in one place. "public": what players and embeds on any site read
 * (playback info, media files, the API document). "upload": the pre-signed and tus upload
 * endpoints that browsers call from other sites without credentials. Every answer, errors
 * included, carries the headers, or the browser hides the reason from the page.
 */
export const CORS = {
  public: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, HEAD, OPTIONS",
    // The viewer's credentials of gated content (lib/access/gate.ts), and seeking.
    "access-control-allow-headers": "livepeer-jwt, livepeer-access-key, range",
    "access-control-expose-headers": "content-length, content-range",
  },
  upload: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "PUT, POST, PATCH, HEAD, OPTIONS, DELETE",
    "access-control-allow-headers":
      "content-type, authorization, tus-resumable, upload-length, upload-metadata, upload-offset, upload-defer-length, upload-concat, x-http-method-override, x-requested-with",
    "access-control-expose-headers": "etag, location, tus-resumable, tus-version, tus-max-size, tus-extension, upload-offset, upload-length, upload-metadata",
    "access-control-max-age": "86400",
  },
} as const;

export type CorsPolicy = keyof typeof CORS;

/**
 * The answer as it leaves, with the policy's headers (a Response's own headers may be
 * immutable). An origin the handler allowed itself (a playback policy's allowedOrigins) stands.
 */
export function withCorsHeaders(res: Response, policy: CorsPolicy | undefined): Response {
  if (!policy) return res;
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(CORS[policy])) {
    if (k !== "access-control-allow-origin" || !out.headers.has(k)) out.headers.set(k, v);
  }
  return out;
}

/** OPTIONS for a route whose operations browsers call from other sites. */
export const preflight = (policy: CorsPolicy) => () => new Response(null, { status: 204, headers: CORS[policy] });
