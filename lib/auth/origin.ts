import type { NextRequest } from "next/server";
import { config } from "@/lib/config";
import { browserOrigin, publicOrigin, type HeaderReader } from "@/lib/origin";

/**
 * The request as Auth.js should see it. It builds its redirects (after sign-out, for
 * instance) from the request's URL, and the URL Next.js gives a custom server's route
 * handlers is its own idea of where it listens (it was http://localhost:3000 whatever
 * the port), not where the browser is. An operator's AUTH_URL is Auth.js's own
 * override of all this: then the request goes as it came.
 */
export function atBrowserOrigin(req: NextRequest): NextRequest {
  const { AUTH_URL, NEXTAUTH_URL } = config();
  if (AUTH_URL ?? NEXTAUTH_URL) return req;
  const origin = browserOrigin(req.headers);
  if (!origin) return req;
  // A plain Request: a NextRequest's URL turns 127.0.0.1 and [::1] into localhost, another
  // origin to the browser. Without AUTH_URL, Auth.js reads only a Request's standard fields.
  return new Request(new URL(req.nextUrl.pathname + req.nextUrl.search, origin), req) as NextRequest;
}

/** Whether a page's origin is this deployment's own (the dashboard, the player), as configured or as the browser reached it. */
export function isOwnOrigin(origin: string, headers: HeaderReader): boolean {
  return origin === publicOrigin() || origin === browserOrigin(headers);
}

/** Methods that change nothing: another page may send them, and cannot read the answer (no CORS). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request riding on the dashboard's session cookie comes from this deployment's own
 * pages. SameSite=Lax lets a page on the same site (another port, a sibling subdomain) send
 * the cookie, so a request that may change something must name its page: browsers send
 * Origin on every such request; Sec-Fetch-Site, then Referer, stand in where a browser or a
 * privacy tool left it out. A request that names no page is refused.
 */
export function isFromOwnPage(req: Request): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  const origin = req.headers.get("origin");
  if (origin !== null) return origin !== "null" && isOwnOrigin(origin, req.headers);
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const referer = req.headers.get("referer");
  return referer !== null && URL.canParse(referer) && isOwnOrigin(new URL(referer).origin, req.headers);
}
