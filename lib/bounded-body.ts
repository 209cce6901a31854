import { Refusal } from "@/lib/errors";

/*
 * Every body Castline reads, from a client (JSON, forms, sign-in, caption and media uploads) or
 * from a URL it fetches (imports, captions, webhook and pinning answers), is counted here as it
 * streams, whatever its framing (Content-Length, chunked, a connection that just keeps sending),
 * and reading stops at its limit: nothing holds more of a body than its reader takes.
 */

type Bytes = AsyncIterable<Uint8Array>;

/** A body longer than its reader takes: a 413 for a request, the reason a fetch failed otherwise. */
export class BodyTooLarge extends Refusal {
  constructor(
    what: string,
    readonly limit: number,
  ) {
    super("too-large", `${what} is over ${limit} bytes`);
    this.name = "BodyTooLarge";
  }
}

/**
 * The bytes of a body passed on as they come, for a reader that streams them on (to storage):
 * the first byte past `limit` ends it with BodyTooLarge. Stopping early ends the body's stream
 * (a web stream is cancelled, a Node stream destroyed).
 */
export async function* capped(body: Bytes, limit: number, what: string): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge(what, limit);
    yield chunk;
  }
}

/**
 * A body read whole, if it has at most `limit` bytes; else BodyTooLarge as soon as it is known:
 * from a declared length (Content-Length) before any byte is read (the body is left as it is),
 * or at the first byte past the limit.
 */
export async function readCapped(
  body: Bytes | null | undefined,
  limit: number,
  what: string,
  declaredLength?: number | string | null,
): Promise<Buffer<ArrayBuffer>> {
  if (Number(declaredLength ?? 0) > limit) throw new BodyTooLarge(what, limit);
  const chunks: Uint8Array[] = [];
  if (body) for await (const chunk of capped(body, limit, what)) chunks.push(chunk);
  return Buffer.concat(chunks) as Buffer<ArrayBuffer>; // a new buffer of its own, never a shared one
}

/** A request's body, read whole (see readCapped). */
export const requestBody = (req: Request, limit: number, what = "the request body") => readCapped(req.body, limit, what, req.headers.get("content-length"));

/**
 * The first `keep` bytes of a fetched answer whose rest is not wanted. A body that ends within
 * them is read to its end (its kept-alive connection then serves the next request); a longer
 * one is dropped there, with its connection, however much more it would send.
 */
export async function bodyPrefix(body: Bytes, keep: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk.subarray(0, keep - size));
    size += chunk.length;
    if (size > keep) break;
  }
  return Buffer.concat(chunks);
}

/** What of an unwanted answer is read so that its connection may serve again; past it the connection is dropped. */
const DISCARDED_BYTES = 64 * 1024;

/** An answer whose body is not wanted (a redirect, a status that says all): let go without waiting, as bodyPrefix lets go. */
export function discardBody(body: Bytes): void {
  bodyPrefix(body, DISCARDED_BYTES).catch(() => {});
}
