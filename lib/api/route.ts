import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { auth } from "@/lib/auth";
import { keyHolder, type KeyHolder } from "@/lib/api-keys/service";
import { isFromOwnPage, isOwnOrigin } from "@/lib/auth/origin";
import { requestBody } from "@/lib/bounded-body";
import { config } from "@/lib/config";
import { ownWritesSeen } from "@/lib/delivery/own-writes";
import { withCorsHeaders } from "./cors";
import { Refusal } from "@/lib/errors";
import { ApiError, errorResponse, refusalResponse, unauthorized, validationError } from "./errors";
import type { Operation } from "./operations";
import { RequestQuota } from "./rate-limit";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable, RETRY_AFTER_S } from "@/db/availability";
import type { Page } from "@/db/pagination";

const MAX_JSON_BODY = 1024 * 1024;
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface Caller {
  userId: string;
  /** Set when the caller authenticated with an API key (not the dashboard's session). */
  keyId?: string;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Output<T> = T extends z.ZodType ? z.input<T> : never;

interface Context<O extends Operation> {
  req: Request;
  params: Record<string, string>;
  body: Infer<O["body"]>;
  query: Infer<O["query"]>;
  caller: O["auth"] extends "user" ? Caller : undefined;
}

/**
 * What a handler answers: what the operation declares (a page of items, a body), or its own
 * Response (with headers of its own, such as a playback policy's CORS; its JSON is checked
 * against the declaration all the same).
 */
type Answer<O extends Operation> =
  | Response
  | (O["paged"] extends true ? Page<Output<O["response"]>> : O["response"] extends z.ZodType ? Output<O["response"]> : unknown); // no content: whatever the handler returns is not sent

/**
 * The request pipeline of every /api operation, driven by its declaration (lib/api/operations.ts):
 * count it against the rate limits, authenticate, parse the body and query with their zod
 * schemas, run the handler, and answer with the declared status (a page with its Link header,
 * a JSON body, or no content), RateLimit headers, CORS headers as declared, and errors as
 * `{"errors": [...]}`.
 */
export function route<O extends Operation>(op: O, handler: (ctx: Context<O>) => Promise<Answer<O>> | Answer<O>) {
  return async (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
    let res: Response;
    const quota = new RequestQuota();
    try {
      await quota.spendByAddress(req, op);
      if (op.auth === "media") authenticateMediaNode(req);
      const caller = (op.auth === "user" ? await authenticate(req, op) : undefined) as Context<O>["caller"];
      if (caller?.keyId) await quota.spendByKey(caller.keyId);
      const query = (op.query ? await parse(op.query, searchParams(req), "query") : undefined) as Context<O>["query"];
      const body = (op.body ? await parse(op.body, await readJson(req, op.emptyBody), "body") : undefined) as Context<O>["body"];
      const params = (await ctx.params) ?? {};
      // Every id we issue matches this; anything else cannot name an object.
      if (Object.values(params).some((p) => !/^[\w-]{1,128}$/.test(p))) throw new ApiError(404, ["not found"]);
      const result = await handler({ req, params, body, query, caller });
      // A write's own viewers (its creator reloading the player) see it once it is answered.
      if (WRITES.has(req.method)) await ownWritesSeen();
      res = await answer(op, req, result);
    } catch (err) {
      res = failure(req, err);
    }
    return withCorsHeaders(quota.apply(res), op.cors, req);
  };
}

async function answer(op: Operation, req: Request, result: unknown): Promise<Response> {
  if (result instanceof Response) {
    const json = /\bjson\b/.test(result.headers.get("content-type") ?? "");
    if (op.response && result.status === op.status && json && config().CHECK_RESPONSES) checkResponse(op, [await result.clone().json()]);
    return result;
  }
  const headers = new Headers(op.cacheControl ? { "cache-control": op.cacheControl } : undefined);
  if (!op.response) return new Response(null, { status: op.status, headers });
  if (op.paged) {
    const page = result as Page<unknown>;
    checkResponse(op, page.items);
    if (page.next) {
      const next = new URL(req.url);
      next.searchParams.set("cursor", page.next);
      headers.set("link", `<${next.pathname}${next.search}>; rel="next"`);
    }
    return Response.json(page.items, { status: op.status, headers });
  }
  checkResponse(op, [result]);
  return Response.json(result, { status: op.status, headers });
}

/**
 * With CHECK_RESPONSES (the test suite sets it), every JSON answer is checked against its
 * declared schema, so the OpenAPI document cannot drift from what the API really sends.
 */
function checkResponse(op: Operation, values: unknown[]) {
  if (!config().CHECK_RESPONSES) return;
  for (const value of values) {
    const result = op.response!.safeParse(value);
    if (!result.success) throw new Error(`${op.method} ${op.path} answered outside its declared schema: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
  }
}

function failure(req: Request, err: unknown): Response {
  if (err instanceof Refusal) return refusalResponse(err);
  if (err instanceof ApiError) return errorResponse(err.status, err.messages, err.headers);
  if (isDatabaseUnavailable(err)) return errorResponse(503, [DATABASE_UNAVAILABLE], { "retry-after": String(RETRY_AFTER_S) });
  // The client went away mid-request: nobody to answer, nothing went wrong here.
  if ((err as NodeJS.ErrnoException).code === "ECONNRESET") return new Response(null, { status: 499 });
  console.error(`${req.method} ${new URL(req.url).pathname} failed:`, err);
  return errorResponse(500, ["internal error"]);
}

async function authenticate(req: Request, op: Operation): Promise<Caller> {
  const header = req.headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("Authorization header must be 'Bearer <API key>'");
    const holder = await keyHolder(match[1]);
    if (!holder) throw unauthorized("invalid API key");
    checkKeyOrigin(req, op, holder);
    return { userId: holder.userId, keyId: holder.keyId };
  }
  // The dashboard calls the same API with its session cookie, from its own pages only.
  if (req.headers.get("cookie")?.includes("authjs.session-token")) {
    if (!isFromOwnPage(req))
      throw new ApiError(403, [
        "a request signed in with the dashboard's session cookie must come from the dashboard's own pages (Origin): elsewhere, use an API key",
      ]);
    const session = await auth();
    if (session?.user?.id) return { userId: session.user.id };
  }
  throw unauthorized("missing API key: send 'Authorization: Bearer <API key>'");
}

/**
 * A CORS-enabled key (one with allowedOrigins) sits in its web pages for anyone to copy: it
 * works only for what such a key may do (operations with the "key" CORS policy), and from a
 * browser only on its origins. Any other key is for servers (the SDK sends no Origin) and the
 * dashboard's own pages.
 */
function checkKeyOrigin(req: Request, op: Operation, holder: KeyHolder) {
  const origin = req.headers.get("origin");
  if (holder.allowedOrigins.length) {
    if (op.cors !== "key") {
      throw new ApiError(403, [
        `a CORS-enabled API key (one with allowedOrigins) may only create upload URLs (POST /api/asset/request-upload), not ${op.method} /api${op.path}: use a key without allowedOrigins on a server`,
      ]);
    }
    if (origin !== null && !holder.allowedOrigins.includes(origin)) {
      throw new ApiError(403, [`this API key may be used from its allowedOrigins only, not from ${origin}`]);
    }
    return;
  }
  if (origin === null || isOwnOrigin(origin, req.headers)) return;
  throw new ApiError(403, [
    `this API key may not be used from the web page origin ${origin}: call the API from a server, or use a key whose allowedOrigins lists the origin (it may only create upload URLs)`,
  ]);
}

function authenticateMediaNode(req: Request) {
  const expected = Buffer.from(config().MEDIA_SECRET ?? "");
  const given = Buffer.from(req.headers.get("x-media-secret") ?? "");
  if (!expected.length || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw unauthorized("media nodes authenticate with the deployment's MEDIA_SECRET");
  }
}

/**
 * The query string as the schemas take it: each name's last value, and a list for `name[]`
 * (`breakdownBy[]=a&breakdownBy[]=b`, as the SDK sends lists), under `name`.
 */
function searchParams(req: Request): Record<string, string | string[]> {
  const params = new URL(req.url).searchParams;
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (!name.endsWith("[]")) query[name] = values[values.length - 1];
    else query[name.slice(0, -2)] = values;
  }
  return query;
}

async function readJson(req: Request, emptyBody?: true): Promise<unknown> {
  const text = new TextDecoder().decode(await requestBody(req, MAX_JSON_BODY));
  const type = req.headers.get("content-type") ?? "";
  if (text.trim() === "") {
    if (emptyBody) return {};
    throw new ApiError(422, ["body: a JSON object is required"]);
  }
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

/** Asynchronous: a schema may check with a refinement that loads what it needs (lib/users/common-passwords.ts). */
async function parse<T extends z.ZodType>(schema: T, input: unknown, where: "body" | "query"): Promise<z.infer<T>> {
  const result = await schema.safeParseAsync(input);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/**
 * An operation that speaks its own protocol (tus, the OpenAPI document): declared like
 * every other, counted against the rate limits, answered by its handler as is, with its
 * declared CORS headers.
 */
export function rawRoute<A extends unknown[]>(op: Operation, handler: (req: Request, ...rest: A) => Promise<Response> | Response) {
  return async (req: Request, ...rest: A) => {
    const quota = new RequestQuota();
    try {
      await quota.spendByAddress(req, op);
    } catch (err) {
      return withCorsHeaders(failure(req, err), op.cors, req);
    }
    return withCorsHeaders(quota.apply(await handler(req, ...rest)), op.cors, req);
  };
}
