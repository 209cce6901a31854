import { operations, type Operation } from "@/lib/api/operations";

/**
 * The `route` label of a request: a template, never the path itself, so ids do not become
 * label values (every new id would be a new time series). /api paths take the template of
 * their declared operation; media and file paths a fixed one per kind.
 */
const API = (Object.values(operations) as Operation[])
  .map((op) => ({
    method: op.method,
    template: `/api${op.path}`,
    pattern: new RegExp(`^/api${op.path.replace(/\./g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
    params: op.path.split("{").length,
  }))
  // As Next.js routes: a static segment wins over a parameter ("/asset/import" over "/asset/{id}").
  .sort((a, b) => a.params - b.params);

/** Paths that are not operations, by their first segments. */
const FIXED: [RegExp, string][] = [
  [/^\/hls\//, "/hls/{playbackId}/..."],
  [/^\/recordings\//, "/recordings/{sessionId}/..."],
  [/^\/asset\//, "/asset/{playbackId}/..."],
  [/^\/play\/[^/]+$/, "/play/{playbackId}"],
  [/^\/ipfs\//, "/ipfs/..."],
  [/^\/webrtc(\/|$)/, "/webrtc/..."],
  [/^\/api\/auth\//, "/api/auth/..."],
  [/^\/api\/inngest$/, "/api/inngest"],
  [/^\/_next\//, "/_next/..."],
  [/^\/metrics$/, "/metrics"],
  [/^\/docs(\/scalar\.js)?$/, "/docs"],
];

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method label: the standard ones as they are, anything else "other". */
export const methodLabel = (method: string | undefined) => (method && METHODS.has(method) ? method : "other");

/**
 * `contentType` is the answer's: HTML (or a React Server Components payload) is a page of the
 * dashboard or the player; whatever else is left is "other".
 */
export function routeTemplate(method: string, pathname: string, contentType: string | undefined): string {
  if (pathname.startsWith("/api/")) {
    // A CORS preflight or tus's HEAD is answered for the path's operations, whichever method.
    const match = API.find((r) => r.method === method && r.pattern.test(pathname)) ?? API.find((r) => r.pattern.test(pathname));
    if (match) return match.template;
  }
  for (const [pattern, template] of FIXED) if (pattern.test(pathname)) return template;
  if (contentType && /^text\/(html|x-component)\b/.test(contentType)) return "page";
  return "other";
}
