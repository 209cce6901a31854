import { z } from "zod";
import type { Operation } from "./operations";

/**
 * The one HTTP client of the Castline API, typed by the operation declarations
 * (lib/api/operations.ts, with the media node protocol's): `call(operations.getStream, { params:
 * { id } })` fills the declared path, encodes the declared query and body, and answers the
 * declared response, parsed with its schema. The dashboard's hooks, the media node's AppClient,
 * the tests' `Api.call` and the benchmarks call through it; who is calling (base URL,
 * Authorization or x-media-secret, credentials, timeout) is the caller's `Transport`.
 *
 * Browser-safe: it and the declarations reach only schemas and zod (test/unit/layout.test.ts).
 */

/** A failed answer (or none): its status (0: the server could not be reached) and the server's `{"errors": [...]}` messages. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    options?: ErrorOptions,
  ) {
    super(messages.join("\n"), options);
    this.name = "ApiRequestError";
  }
}

/** Who calls and how; nothing here is kept between calls. */
export interface Transport {
  /** Where the app answers ("http://127.0.0.1:3000"); none: the page's own origin (the dashboard). */
  baseUrl?: string;
  /** Sent with the request: `authorization`, `x-media-secret`, `origin`… */
  headers?: Record<string, string>;
  credentials?: RequestCredentials;
  redirect?: RequestRedirect;
  signal?: AbortSignal;
  /** No answer within this long fails the call (ApiRequestError, status 0). */
  timeoutMs?: number;
}

/** The bytes of a `raw` operation's request (a file, a stream) and their media type. */
export class RawBody {
  constructor(
    readonly content: Blob | ReadableStream<Uint8Array> | Uint8Array | string,
    readonly type: string,
  ) {}
}

/** A page of a paged operation: its items, and the cursor of the next page (from the Link header) when more exist. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The names in a path template: "/stream/{id}/log/{logId}" gives "id" | "logId". */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

type ParamsInput<O extends Operation> = [PathParams<O["path"]>] extends [never] ? { params?: undefined } : { params: Record<PathParams<O["path"]>, string> };

type QueryInput<O extends Operation> = O["query"] extends z.ZodType
  ? object extends z.input<O["query"]>
    ? { query?: z.input<O["query"]> }
    : { query: z.input<O["query"]> }
  : { query?: undefined };

type BodyInput<O extends Operation> = O["body"] extends z.ZodType
  ? O["emptyBody"] extends true
    ? { body?: z.input<O["body"]> }
    : { body: z.input<O["body"]> }
  : O["raw"] extends string
    ? { body?: RawBody | Record<string, unknown> }
    : { body?: undefined };

/** What a call of `O` sends: its path's params, its query and its body, as its schemas take them. */
export type CallInput<O extends Operation> = ParamsInput<O> & QueryInput<O> & BodyInput<O>;

/** What a call of `O` answers: its response parsed (a page of them when paged), or undefined (no content). */
export type CallResult<O extends Operation> = O["response"] extends z.ZodType
  ? O["paged"] extends true
    ? Page<z.output<O["response"]>>
    : z.output<O["response"]>
  : undefined;

/** The input may be left out when nothing in it is required (`call(operations.getMe)`). */
export type CallArgs<O extends Operation> =
  object extends CallInput<O> ? [input?: CallInput<O>, transport?: Transport] : [input: CallInput<O>, transport?: Transport];

/** Any operation's input, as the untyped parts below read it. */
interface AnyInput {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
}

/** One call of a declared operation: its answer, or an ApiRequestError for a failed answer (or none). */
export async function call<O extends Operation>(op: O, ...[input, transport]: CallArgs<O>): Promise<CallResult<O>> {
  return (await answerOf(op, await send(op, input, transport))) as CallResult<O>;
}

/** The request of a call, sent: its Response whatever its status (the tests look at refusals). */
export async function send(op: Operation, input: AnyInput = {}, transport: Transport = {}): Promise<Response> {
  const timeout = transport.timeoutMs === undefined ? undefined : AbortSignal.timeout(transport.timeoutMs);
  const { url, init } = requestOf(op, input, transport);
  try {
    return await fetch(url, { ...init, signal: timeout && transport.signal ? AbortSignal.any([timeout, transport.signal]) : (timeout ?? transport.signal) });
  } catch (err) {
    // The caller's own abort (a page left, a query cancelled) is no failure to report.
    if (transport.signal?.aborted) throw err;
    if (timeout?.aborted) throw new ApiRequestError(0, [`The server did not answer within ${transport.timeoutMs! / 1000} s.`], { cause: err });
    throw new ApiRequestError(0, ["Could not reach the server. Check your connection and try again."], { cause: err });
  }
}

/** The URL and fetch options of a call (no signal: `send` adds it). */
export function requestOf(op: Operation, input: AnyInput, transport: Transport = {}): { url: string; init: RequestInit } {
  const query = input.query ? encodeQuery(input.query) : "";
  const url = `${transport.baseUrl ?? ""}/api${fillPath(op.path, input.params)}${query && `?${query}`}`;
  const headers: Record<string, string> = { accept: "application/json" };
  let body: BodyInit | undefined;
  if (input.body instanceof RawBody) {
    headers["content-type"] = input.body.type;
    body = input.body.content as BodyInit;
  } else if (input.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(input.body);
  }
  const init: RequestInit & { duplex?: "half" } = {
    method: op.method,
    headers: { ...headers, ...transport.headers },
    body,
    ...(transport.credentials && { credentials: transport.credentials }),
    ...(transport.redirect && { redirect: transport.redirect }),
    // A stream is sent as it is read (Node's fetch requires saying so).
    ...(body instanceof ReadableStream && { duplex: "half" }),
  };
  return { url, init };
}

/** A path template with its params, each encoded as one path segment. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${template} needs its "${name}" parameter`);
    return encodeURIComponent(value);
  });
}

/**
 * A query's fields as URL parameters: undefined ones left out, the rest as text; a list as
 * `name[]` once per item, as the `livepeer` SDK sends lists and the request pipeline reads them
 * (lib/api/route.ts: a plain name's last value counts).
 */
export function encodeQuery(query: object): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) search.append(`${name}[]`, String(item));
    else if (value !== undefined) search.append(name, String(value));
  }
  return search.toString();
}

/** A call's success answer parsed with its operation's response schema; a failed answer thrown as an ApiRequestError. */
export async function answerOf(op: Operation, res: Response): Promise<unknown> {
  if (!res.ok) throw new ApiRequestError(res.status, await errorMessages(res));
  if (!op.response) {
    await res.body?.cancel();
    return undefined;
  }
  const data: unknown = await res.json();
  if (!op.paged) return op.response.parse(data);
  return { items: z.array(op.response).parse(data), nextCursor: nextCursor(res.headers.get("link")) } satisfies Page<unknown>;
}

/** The server's `{"errors": [...]}` messages, or a message saying what failed when the body has none (a proxy's HTML page). */
export async function errorMessages(res: Response): Promise<string[]> {
  try {
    const data = (await res.json()) as { errors?: unknown };
    if (Array.isArray(data.errors) && data.errors.length) return data.errors.map(String);
  } catch {
    // not JSON: the generic message below
  }
  return [`Request failed (${res.status} ${res.statusText || "error"})`];
}

/** The cursor of a Link header's `rel="next"` URL. */
export function nextCursor(link: string | null): string | undefined {
  const url = link && /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
  return url ? (new URL(url, "http://link.invalid").searchParams.get("cursor") ?? undefined) : undefined;
}
