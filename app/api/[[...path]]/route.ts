import { errorResponse } from "@/lib/api/errors";

/**
 * A path under /api that names no operation: the JSON error every API client reads, not the
 * dashboard's HTML page. (Paths that exist answer from their own routes, which Next.js prefers
 * to this catch-all.)
 */
const notFound = () => errorResponse(404, ["not found"]);

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
