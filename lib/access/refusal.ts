/**
 * Why a viewer may not watch gated content, as every refusal says it: the `refusal` of the JSON
 * answer, beside `errors` (the detail). A player chooses its message by it
 * (lib/playback/viewer-message.ts), not by the wording of the detail. Each has its HTTP status:
 * - `credential-needed`: private, and no JWT or access key was given (401);
 * - `expired`: the viewer's JWT, or the playback token of a URL, is past its exp (403);
 * - `refused`: the credential is not valid for this content, or the access webhook said no (4xx) (403);
 * - `site-not-allowed`: the page playing it is not one of the policy's allowedOrigins (403);
 * - `check-unavailable`: the owner's access webhook did not answer usefully (5xx, a redirect,
 *   timeout, unreachable, deleted): nobody refused, so it is worth trying again later (503).
 */
export const REFUSAL_STATUS = {
  "credential-needed": 401,
  expired: 403,
  refused: 403,
  "site-not-allowed": 403,
  "check-unavailable": 503,
} as const;

export type ViewerRefusal = keyof typeof REFUSAL_STATUS;

export const isViewerRefusal = (value: unknown): value is ViewerRefusal => typeof value === "string" && Object.hasOwn(REFUSAL_STATUS, value);

/** How soon a viewer refused because the access check was unavailable may ask again (Retry-After). */
export const CHECK_RETRY_AFTER_S = 5;
