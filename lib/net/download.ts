import type { IncomingMessage } from "node:http";
import { BodyTooLarge, discardBody, readCapped } from "@/lib/bounded-body";
import { guardedRequest, PrivateAddressError } from "./guard";

const MAX_REDIRECTS = 5;

/**
 * Why a user's URL could not be fetched, in words for the user who gave it.
 * `retriable`: the server may answer better later (5xx, 408, 429, a dropped connection).
 */
export class FetchFailed extends Error {
  constructor(
    message: string,
    readonly retriable = false,
  ) {
    super(message);
  }
}

/**
 * GET of a URL a user gave (imports, caption files): redirects followed (at most 5, http
 * and https only) with private addresses refused on every hop, checked on the address
 * connected (lib/net/guard.ts). Resolves with the 2xx response, its body unread.
 */
export async function openUserUrl(start: string, opts: { timeoutMs: number; signal?: AbortSignal; userAgent: string }): Promise<IncomingMessage> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let res: IncomingMessage;
    try {
      res = await guardedRequest(url, { timeoutMs: opts.timeoutMs, signal: opts.signal, headers: { "user-agent": opts.userAgent } });
    } catch (err) {
      throw explain(err, url, opts);
    }
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) return res;
    discardBody(res);
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      const next = new URL(location, url);
      if (next.protocol !== "http:" && next.protocol !== "https:") throw new FetchFailed(`the URL redirects to ${next.protocol}, which cannot be fetched`);
      url = next.toString();
      continue;
    }
    const answer = `${status} ${res.statusMessage ?? ""}`.trim();
    throw new FetchFailed(`the URL answered ${answer}`, status >= 500 || status === 408 || status === 429);
  }
  throw new FetchFailed(`the URL redirects more than ${MAX_REDIRECTS} times`);
}

/** A small file (captions, not media) from a user's URL, whole: at most `limit` bytes, all of it within `timeoutMs`. */
export async function fetchSmallFile(url: string, { limit, timeoutMs }: { limit: number; timeoutMs: number }): Promise<Buffer> {
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await openUserUrl(url, { timeoutMs, signal, userAgent: "Castline" });
  try {
    return await readCapped(res, limit, "the file at the URL", res.headers["content-length"]);
  } catch (err) {
    res.destroy(); // refused from its Content-Length, it was not read at all
    throw explain(err, url, { timeoutMs, signal });
  }
}

/** Errors that retrying cannot fix, and timeouts, become FetchFailed with a plain message. */
function explain(err: unknown, url: string, { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal }): Error {
  if (err instanceof FetchFailed) return err;
  if (err instanceof BodyTooLarge) return new FetchFailed(err.message);
  const { hostname, host } = new URL(url);
  // Without the port: a refused address must read the same whichever port was asked.
  if (err instanceof PrivateAddressError) return new FetchFailed(`${hostname} is ${err.refusal}, which cannot be fetched from`);
  if (signal?.aborted) return new FetchFailed(`the URL did not answer in full within ${timeoutMs / 1000} s`);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new FetchFailed(`${host} could not be found (DNS)`);
  if (code === "ECONNREFUSED") return new FetchFailed(`${host} refused the connection`);
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return new FetchFailed(`${host}'s TLS certificate is not valid (${code})`);
  return err instanceof Error ? err : new Error(String(err));
}
