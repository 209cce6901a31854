import type http from "node:http";
import type { Readable } from "node:stream";
import { CORS } from "@/lib/api/cors";
import { NodeHeaders, type HeaderReader } from "@/lib/origin";
import type { ObjectInfo } from "@/lib/storage/types";

/**
 * The viewer plane speaks node:http directly, not fetch's Request and Response: a player's
 * requests (a media playlist every segment, every segment once) are the most frequent there are,
 * and wrapping each in Web objects and streams cost more than answering it.
 */

/** What the viewer plane reads of a request. */
export interface ViewerRequest {
  readonly method: string;
  /** The path, percent-decoding left to the routes' own patterns (which admit no escapes). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: HeaderReader;
  /** The connection it came on (keep-alive: a player's requests share one), a key for what is worked out once per connection. */
  readonly connection?: object;
}

/** A request the launcher's HTTP server received, as the viewer plane reads it (its query parsed only if read). */
export class NodeViewerRequest implements ViewerRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: HeaderReader;
  readonly connection: object;
  readonly #search: string;
  #query?: URLSearchParams;

  constructor(req: http.IncomingMessage) {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    this.method = req.method ?? "GET";
    this.path = q < 0 ? url : url.slice(0, q);
    this.#search = q < 0 ? "" : url.slice(q + 1);
    this.headers = new NodeHeaders(req.headers);
    this.connection = req.socket;
  }

  get query() {
    return (this.#query ??= new URLSearchParams(this.#search));
  }
}

/** A fetch Request (the playback info route, in Next) as the viewer plane reads it. */
export function viewerRequestOf(req: Request): ViewerRequest {
  const url = new URL(req.url);
  return { method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers };
}

/** An answer: a body in memory, or a stream opened once the headers are decided. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body?: string | Buffer;
  open?: () => Promise<Readable>;
  /** Until when (ms) this is the answer for every viewer asking its URL plainly (lib/delivery/shared.ts may give it again). */
  sharedUntil?: number;
  /** The live stream whose viewer this answer counts (a playlist: players poll it every segment). */
  viewerOf?: string;
}

/** Content types of what the viewer plane serves. */
export const CONTENT_TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  mp4: "video/mp4",
  m4s: "video/iso.segment",
  vtt: "text/vtt; charset=utf-8",
  jpg: "image/jpeg",
};

export const IMMUTABLE = "public, max-age=31536000, immutable";
/** Live media playlists change every segment: a CDN may hold one for a second, no longer. */
export const LIVE_PLAYLIST = "public, max-age=1";

const PUBLIC = CORS.public;

export const notFound = (): Reply => json(404, { errors: ["not found"] });

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { ...PUBLIC, "content-type": "application/json", "cache-control": "no-store", ...headers },
  body: JSON.stringify(body),
});

export const text = (body: string, contentType: string, cacheControl: string): Reply => ({
  status: 200,
  headers: { ...PUBLIC, "content-type": contentType, "cache-control": cacheControl },
  body,
});

/** The answer to a CORS preflight of a viewer path: players on other sites send credentials as headers. */
export const preflight = (): Reply => ({ status: 204, headers: { ...PUBLIC } });

export interface FileOptions {
  cacheControl: string;
  contentType?: string;
  /** The Content-Disposition of a download (lib/api/download-name.ts makes one of a title). */
  disposition?: string;
}

/**
 * A stored file with what players, download managers and caches use: one byte range
 * (seeking), a validator (ETag, Last-Modified) and 304 for a copy still current. The
 * body is streamed, never read whole, unless it is already in memory (`source` a Buffer).
 */
export function fileReply(
  req: ViewerRequest,
  info: ObjectInfo,
  source: Buffer | ((range: { start: number; end: number }) => Promise<Readable>),
  name: string,
  opts: FileOptions,
): Reply {
  const etag = `W/"${info.size.toString(16)}-${info.modifiedAt.getTime().toString(16)}"`;
  const lastModified = info.modifiedAt.toUTCString();
  const headers: Record<string, string> = {
    ...PUBLIC,
    "content-type": opts.contentType ?? CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream",
    "cache-control": opts.cacheControl,
    "accept-ranges": "bytes",
    etag,
    "last-modified": lastModified,
  };
  if (opts.disposition) headers["content-disposition"] = opts.disposition;
  if (isCurrent(req.headers, etag, info.modifiedAt)) return { status: 304, headers };

  const { size } = info;
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = wantedRange(req.headers, etag, lastModified);
  if (range) {
    start = range[0] !== undefined ? range[0] : Math.max(0, size - range[1]!);
    end = range[0] !== undefined && range[1] !== undefined ? Math.min(range[1], size - 1) : size - 1;
    if (start > end || start >= size) return { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } };
    status = 206;
    headers["content-range"] = `bytes ${start}-${end}/${size}`;
  }
  headers["content-length"] = String(end - start + 1);
  if (req.method === "HEAD" || size === 0) return { status, headers };
  if (Buffer.isBuffer(source)) return { status, headers, body: source.subarray(start, end + 1) };
  return { status, headers, open: () => source({ start, end }) };
}

/** If-None-Match (which wins when both are sent), else If-Modified-Since, says the client's copy is current. */
function isCurrent(headers: HeaderReader, etag: string, modifiedAt: Date): boolean {
  const match = headers.get("if-none-match");
  if (match !== null) return match.split(",").some((tag) => tag.trim() === "*" || weakly(tag.trim()) === weakly(etag));
  const since = Date.parse(headers.get("if-modified-since") ?? "");
  return Number.isFinite(since) && Math.floor(modifiedAt.getTime() / 1000) * 1000 <= since;
}

const weakly = (tag: string) => tag.replace(/^W\//, "");

/**
 * The one byte range asked for ("bytes=a-b", "bytes=a-", "bytes=-n"), unless If-Range names
 * another version of the file. Anything else (several ranges, another unit, nonsense) is
 * answered with the whole file, as RFC 9110 allows.
 */
function wantedRange(headers: HeaderReader, etag: string, lastModified: string): [number | undefined, number | undefined] | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(headers.get("range") ?? "");
  if (!match || !(match[1] || match[2])) return undefined;
  const ifRange = headers.get("if-range");
  if (ifRange !== null && ifRange !== etag.replace(/^W\//, "") && ifRange !== lastModified) return undefined;
  return [match[1] ? Number(match[1]) : undefined, match[2] ? Number(match[2]) : undefined];
}

/**
 * Writes an answer: one in memory at once (no promise: the most frequent answers are these), a
 * stream once opened. A stream that fails midway (the store lost the object, the client left) ends
 * the connection, which the client sees as a short body: there is no status left to change.
 */
export function send(res: http.ServerResponse, reply: Reply): Promise<void> | undefined {
  if (!reply.open) {
    if (reply.body !== undefined) reply.headers["content-length"] ??= String(Buffer.byteLength(reply.body));
    res.writeHead(reply.status, reply.headers).end(reply.body);
    return undefined;
  }
  return stream(res, reply, reply.open);
}

async function stream(res: http.ServerResponse, reply: Reply, open: () => Promise<Readable>): Promise<void> {
  let body: Readable;
  try {
    body = await open();
  } catch {
    // Gone between its stat and its read (removed, a takedown): as if it had never been there.
    const gone = notFound();
    res.writeHead(gone.status, { ...gone.headers, "content-length": String(Buffer.byteLength(gone.body!)) }).end(gone.body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  body.once("error", () => res.destroy());
  res.once("close", () => body.destroy());
  body.pipe(res);
}

/** A reply as a fetch Response, for the one viewer answer Next still gives (the playback info route). */
export function asResponse(reply: Reply): Response {
  const body = Buffer.isBuffer(reply.body) ? new Uint8Array(reply.body) : reply.body;
  return new Response(body ?? null, { status: reply.status, headers: reply.headers });
}
