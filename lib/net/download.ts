import { guardedRequest, PrivateAddressError } from "./guard";

const MAX_REDIRECTS = 5;

/** Why a small file could not be fetched, in words for the user who gave the URL. */
export class FetchFailed extends Error {}

/**
 * A small file (captions, not media) from a user's URL, whole, while the request waits:
 * redirects followed with private addresses refused on every hop (lib/net/guard.ts),
 * at most `limit` bytes, all of it within `timeoutMs`.
 */
export async function fetchSmallFile(start: string, { limit, timeoutMs }: { limit: number; timeoutMs: number }): Promise<Buffer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let url = start;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const res = await guardedRequest(url, { timeoutMs, signal, headers: { "user-agent": "Castline" } });
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        const next = new URL(location, url);
        if (next.protocol !== "http:" && next.protocol !== "https:") throw new FetchFailed(`the URL redirects to ${next.protocol}, which cannot be fetched`);
        url = next.toString();
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new FetchFailed(`the URL answered ${`${status} ${res.statusMessage ?? ""}`.trim()}`);
      }
      if (Number(res.headers["content-length"] ?? 0) > limit) {
        res.destroy();
        throw new FetchFailed(`the file at the URL is over ${limit} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) {
          res.destroy();
          throw new FetchFailed(`the file at the URL is over ${limit} bytes`);
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    }
    throw new FetchFailed(`the URL redirects more than ${MAX_REDIRECTS} times`);
  } catch (err) {
    throw explain(err, url, signal, timeoutMs);
  }
}

function explain(err: unknown, url: string, signal: AbortSignal, timeoutMs: number): Error {
  if (err instanceof FetchFailed) return err;
  const { hostname, host } = new URL(url);
  if (err instanceof PrivateAddressError) return new FetchFailed(`${hostname} is a private address, which cannot be fetched from`);
  if (signal.aborted) return new FetchFailed(`the URL did not answer in full within ${timeoutMs / 1000} s`);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new FetchFailed(`${host} could not be found (DNS)`);
  if (code === "ECONNREFUSED") return new FetchFailed(`${host} refused the connection`);
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return new FetchFailed(`${host}'s TLS certificate is not valid (${code})`);
  return new FetchFailed(`fetching the URL failed: ${(err as Error).message ?? String(err)}`);
}
