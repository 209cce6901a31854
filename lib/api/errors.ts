import type { ZodError } from "zod";

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

export const badRequest = (message: string) => new ApiError(400, [message]);
export const unauthorized = (message: string) =>
  new ApiError(401, [message], { "www-authenticate": 'Bearer realm="castline"' });
export const forbidden = (message: string) => new ApiError(403, [message]);
/** Unknown ids and other users' ids look the same, so nobody learns what exists. */
export const notFound = (what: string) => new ApiError(404, [`${what} not found`]);

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
