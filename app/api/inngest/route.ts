import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { errorResponse } from "@/lib/api/errors";
import { usesInngestServer } from "@/lib/jobs/mode";

/**
 * The endpoint an Inngest server drives the functions through. Without one, the
 * built-in driver calls the same functions in-process and this route says so.
 */
const handlers = serve({ client: inngest, functions });

const withoutServer = () =>
  errorResponse(404, ["no Inngest server is configured: background work runs on the built-in driver (see README)"]);

export const GET = (req: Request, ctx: unknown) => (usesInngestServer() ? handlers.GET(req as never, ctx) : withoutServer());
export const POST = (req: Request, ctx: unknown) => (usesInngestServer() ? handlers.POST(req as never, ctx) : withoutServer());
export const PUT = (req: Request, ctx: unknown) => (usesInngestServer() ? handlers.PUT(req as never, ctx) : withoutServer());
