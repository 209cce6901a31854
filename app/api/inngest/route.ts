import { serve } from "inngest/next";
import { inngest } from "@/lib/jobs/client";
import { functions } from "@/inngest/functions";
import { errorResponse, refusalResponse } from "@/lib/api/errors";
import { BodyTooLarge, requestBody } from "@/lib/bounded-body";
import { usesInngestServer } from "@/lib/jobs/mode";

/**
 * The endpoint an Inngest server drives the functions through. Without one, the
 * built-in driver calls the same functions in-process and this route says so.
 */
const handlers = serve({ client: inngest, functions });

/** Inngest's largest run state (32 MB, its documented limit), with room for the call around it. */
const INNGEST_CALL_LIMIT = 40 * 1024 * 1024;

const withoutServer = () => errorResponse(404, ["no Inngest server is configured: background work runs on the built-in driver (see README)"]);

/**
 * The SDK reads the whole body before it checks the signature: it is handed the body read
 * here, bounded, instead.
 */
const withBody = (handler: (req: never, ctx: unknown) => Promise<Response>) => async (req: Request, ctx: unknown) => {
  if (!usesInngestServer()) return withoutServer();
  try {
    const body = await requestBody(req, INNGEST_CALL_LIMIT);
    return await handler(new Request(req.url, { method: req.method, headers: req.headers, body }) as never, ctx);
  } catch (err) {
    if (err instanceof BodyTooLarge) return refusalResponse(err);
    throw err;
  }
};

export const GET = (req: Request, ctx: unknown) => (usesInngestServer() ? handlers.GET(req as never, ctx) : withoutServer());
export const POST = withBody(handlers.POST);
export const PUT = withBody(handlers.PUT);
