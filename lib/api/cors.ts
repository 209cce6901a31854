/**
 * Cross-origin access for endpoints browsers call from other sites without
 * credentials (pre-signed uploads): every answer, errors included, carries the
 * headers, or the browser hides the reason from the page.
 */
export const UPLOAD_CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "PUT, POST, PATCH, HEAD, OPTIONS, DELETE",
  "access-control-allow-headers":
    "content-type, authorization, tus-resumable, upload-length, upload-metadata, upload-offset, upload-defer-length, upload-concat, x-http-method-override, x-requested-with",
  "access-control-expose-headers": "etag, location, tus-resumable, tus-version, tus-max-size, tus-extension, upload-offset, upload-length, upload-metadata",
  "access-control-max-age": "86400",
};

export function withCors<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>, headers: Record<string, string>) {
  return async (req: Request, ...rest: A) => {
    const res = await handler(req, ...rest);
    const out = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
    return out;
  };
}

export const preflight = (headers: Record<string, string>) => () => new Response(null, { status: 204, headers });
