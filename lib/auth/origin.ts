import type { NextRequest } from "next/server";
import { config } from "@/lib/config";
import { publicOrigin } from "@/lib/origin";

/** What a Host or X-Forwarded-Host header may hold: a host name or address, and a port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

const first = (value: string | null) => value?.split(",")[0].trim() || undefined;

/**
 * The origin the browser used to reach this app, for the redirects of sign-in and
 * sign-out: PUBLIC_URL when set; else the Host header, or X-Forwarded-Host when the
 * operator trusts the proxy in front (AUTH_TRUST_HOST=true). The scheme is
 * X-Forwarded-Proto, which Next.js sets from the connection when no proxy did, and
 * which Auth.js also reads when it looks up a session: both then agree on whether
 * the session cookie is a secure one.
 */
export function browserOrigin(headers: Headers, cfg = config()): string | undefined {
  if (cfg.PUBLIC_URL) return new URL(cfg.PUBLIC_URL).origin;
  const host = (cfg.AUTH_TRUST_HOST && first(headers.get("x-forwarded-host"))) || first(headers.get("host"));
  if (!host || !HOST.test(host)) return undefined;
  const scheme = first(headers.get("x-forwarded-proto")) === "https" ? "https" : "http";
  return new URL(`${scheme}://${host}`).origin;
}

/**
 * The request as Auth.js should see it. It builds its redirects (after sign-out, for
 * instance) from the request's URL, and the URL Next.js gives a custom server's route
 * handlers is its own idea of where it listens (it was http://localhost:3000 whatever
 * the port), not where the browser is. An operator's AUTH_URL is Auth.js's own
 * override of all this: then the request goes as it came.
 */
export function atBrowserOrigin(req: NextRequest): NextRequest {
  if (process.env.AUTH_URL ?? process.env.NEXTAUTH_URL) return req;
  const origin = browserOrigin(req.headers);
  if (!origin) return req;
  // A plain Request: a NextRequest's URL turns 127.0.0.1 and [::1] into localhost, another
  // origin to the browser. Without AUTH_URL, Auth.js reads only a Request's standard fields.
  return new Request(new URL(req.nextUrl.pathname + req.nextUrl.search, origin), req) as NextRequest;
}

/** Whether a page's origin is this deployment's own (the dashboard, the player), as configured or as the browser reached it. */
export function isOwnOrigin(origin: string, headers: Headers): boolean {
  return origin === publicOrigin() || origin === browserOrigin(headers);
}
