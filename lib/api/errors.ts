import type { ZodError } from "zod";
import type { Refusal, RefusalKind } from "@/lib/errors";

/** An error a client caused or may see; it becomes `{"errors": [...]}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.join("; "));
  }
}

export const unauthorized = (message: string) => new ApiError(401, [message], { "www-authenticate": 'Bearer realm="castline"' });

/** Every error status the API answers, and what it means (the reference's words). */
export const ERROR_STATUSES: Record<number, string> = {
  400: "a business rule refused the request (a range outside what is kept, a cursor of another order, a private URL)",
  401: "no API key, or not a valid one",
  403: "authenticated, but not allowed (a CORS-enabled key outside upload URLs, an expired upload URL, a refused viewer)",
  404: "unknown id, or another account's object: whether one exists is never revealed",
  408: "the client stopped sending (a stalled upload)",
  409: "conflicts with the object's state (renditions changed while live, a file already uploaded)",
  413: "too large",
  415: "a content type the operation does not take",
  422: "the body or query does not fit the schema (the message names the field), or content (a file) that cannot be used",
  429: "too many requests: wait `Retry-After` seconds",
  503: "unavailable (the database does not answer, or a dependency is down)",
};

/** The status of each kind of refusal the domain says (lib/errors.ts). */
export const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  unprocessable: 422,
  forbidden: 403,
  "not-found": 404,
  timeout: 408,
  conflict: 409,
  "too-large": 413,
  unavailable: 503,
  "too-many": 429,
};

export function validationError(error: ZodError, where: "body" | "query"): ApiError {
  const messages = error.issues.map((issue) => {
    const path = issue.path.join(".");
    return path ? `${path}: ${issue.message}` : `${where}: ${issue.message}`;
  });
  return new ApiError(422, messages);
}

export function errorResponse(status: number, messages: string[], headers: Record<string, string> = {}) {
  return Response.json({ errors: messages }, { status, headers });
}

export function refusalResponse(refusal: Refusal): Response {
  const headers: Record<string, string> = refusal.retryAfterS ? { "retry-after": String(refusal.retryAfterS) } : {};
  return errorResponse(REFUSAL_STATUS[refusal.kind], [refusal.message], headers);
}
