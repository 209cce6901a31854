import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { auth } from "@/lib/auth";
import { userIdForApiKey } from "@/lib/api-keys/service";
import { ApiError, errorResponse, unauthorized, validationError } from "./errors";

const MAX_JSON_BODY = 1024 * 1024;

export interface Caller {
  userId: string;
}

interface Spec<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  body?: B;
  query?: Q;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

interface Context<B, Q, A> {
  req: Request;
  params: Record<string, string>;
  body: B;
  query: Q;
  caller: A;
}

type Handler<B, Q, A> = (ctx: Context<B, Q, A>) => Promise<unknown> | unknown;

/**
 * The request pipeline of every /api route: authenticate, parse the body and
 * query with their zod schemas, run the handler, and turn the result or error
 * into a response. A plain value becomes 200 JSON; a Response passes through.
 */
/**
 * "user": an API key or a dashboard session is required. "none": public.
 * "media": a media node of this deployment (the MEDIA_SECRET header).
 */
export function route<
  A extends "user" | "none" | "media",
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(spec: Spec<B, Q> & { auth: A }, handler: Handler<Infer<B>, Infer<Q>, A extends "user" ? Caller : undefined>) {
  return async (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
    try {
      if (spec.auth === "media") authenticateMediaNode(req);
      const caller = (spec.auth === "user" ? await authenticate(req) : undefined) as A extends "user" ? Caller : undefined;
      const query = (spec.query ? parse(spec.query, searchParams(req), "query") : undefined) as Infer<Q>;
      const body = (spec.body ? parse(spec.body, await readJson(req), "body") : undefined) as Infer<B>;
      const params = (await ctx.params) ?? {};
      // Every id we issue matches this; anything else cannot name an object.
      if (Object.values(params).some((p) => !/^[\w-]{1,128}$/.test(p))) throw new ApiError(404, ["not found"]);
      const result = await handler({ req, params, body, query, caller });
      return result instanceof Response ? result : Response.json(result);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err.status, err.messages, err.headers);
      // The client went away mid-request: nobody to answer, nothing went wrong here.
      if ((err as NodeJS.ErrnoException).code === "ECONNRESET") return new Response(null, { status: 499 });
      console.error(`${req.method} ${new URL(req.url).pathname} failed:`, err);
      return errorResponse(500, ["internal error"]);
    }
  };
}

export const created = (value: unknown) => Response.json(value, { status: 201 });
export const noContent = () => new Response(null, { status: 204 });

async function authenticate(req: Request): Promise<Caller> {
  const header = req.headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("Authorization header must be 'Bearer <API key>'");
    const userId = await userIdForApiKey(match[1]);
    if (!userId) throw unauthorized("invalid API key");
    return { userId };
  }
  // The dashboard calls the same API with its session cookie.
  if (req.headers.get("cookie")?.includes("authjs.session-token")) {
    const session = await auth();
    if (session?.user?.id) return { userId: session.user.id };
  }
  throw unauthorized("missing API key: send 'Authorization: Bearer <API key>'");
}

function authenticateMediaNode(req: Request) {
  const expected = Buffer.from(process.env.MEDIA_SECRET ?? "");
  const given = Buffer.from(req.headers.get("x-media-secret") ?? "");
  if (!expected.length || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw unauthorized("media nodes authenticate with the deployment's MEDIA_SECRET");
  }
}

function searchParams(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}

async function readJson(req: Request): Promise<unknown> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > MAX_JSON_BODY) throw new ApiError(413, [`request body is larger than ${MAX_JSON_BODY} bytes`]);
  const text = await req.text();
  if (text.length > MAX_JSON_BODY) throw new ApiError(413, [`request body is larger than ${MAX_JSON_BODY} bytes`]);
  const type = req.headers.get("content-type") ?? "";
  if (text.trim() === "") throw new ApiError(422, ["body: a JSON object is required"]);
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError(415, ["content-type must be application/json"]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, ["request body is not valid JSON"]);
  }
  // PostgreSQL text cannot hold NUL; refuse it here rather than fail in a query.
  if (/\\u0000/i.test(text)) throw new ApiError(400, ["strings must not contain NUL (\\u0000) characters"]);
  return value;
}

function parse<T extends z.ZodType>(schema: T, input: unknown, where: "body" | "query"): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** A list response: the items, and a Link header to the next page when there is one. */
export function paged(req: Request, page: { items: unknown[]; next?: string }) {
  const headers = new Headers();
  if (page.next) {
    const next = new URL(req.url);
    next.searchParams.set("cursor", page.next);
    headers.set("link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return Response.json(page.items, { headers });
}
