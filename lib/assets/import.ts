import type { IncomingMessage } from "node:http";
import { config } from "@/lib/config";
import { guardedRequest, PrivateAddressError } from "@/lib/net/guard";
import { updateTask } from "@/lib/tasks/service";
import { TooLargeError } from "./hashing";
import { sourceArrived, storeSource } from "./pipeline";
import { metered } from "./progress";
import { updateAsset } from "./service";

const MAX_REDIRECTS = 5;
/** No byte for this long ends the download (a stalled server); a slow but moving one may take hours. */
const IDLE_TIMEOUT_MS = 30_000;

/** A source that will not become an asset however often we try: the reason goes to the user. */
export class SourceRejected extends Error {}

/**
 * Downloads an import's source into the store: redirects followed, private
 * addresses refused on every hop, size limited, hashed on the way in. Progress
 * fills the first `share` of the task. Transient failures (5xx, timeouts,
 * dropped connections) throw for the job to retry; the rest are SourceRejected.
 */
export async function downloadSource(assetId: string, taskId: string, url: string, share: number): Promise<void> {
  await sourceArrived(assetId, taskId, 0);
  const res = await follow(url);
  const limit = config().MAX_UPLOAD_BYTES;
  const total = Number(res.headers["content-length"] ?? 0);
  if (total > limit) {
    res.destroy();
    throw new SourceRejected(`the file at the URL is ${total} bytes, over the limit of ${limit} bytes`);
  }
  const body = metered(res, total, async (fraction) => {
    await updateAsset(assetId, { progress: fraction * share });
    await updateTask(taskId, { progress: fraction * share });
  });
  let digest;
  try {
    digest = await storeSource(assetId, body);
  } catch (err) {
    if (err instanceof TooLargeError) throw new SourceRejected(`the file at the URL is over the limit of ${limit} bytes`);
    throw err;
  }
  if (total && digest.size < total) throw new Error(`the download ended after ${digest.size} of ${total} bytes`);
}

async function follow(start: string): Promise<IncomingMessage> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let res: IncomingMessage;
    try {
      res = await guardedRequest(url, { timeoutMs: IDLE_TIMEOUT_MS, headers: { "user-agent": "Castline importer" } });
    } catch (err) {
      throw explain(err, url);
    }
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) return res;
    res.resume(); // drain: the body is not wanted, the connection may be reused
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      const next = new URL(location, url);
      if (next.protocol !== "http:" && next.protocol !== "https:") throw new SourceRejected(`the URL redirects to ${next.protocol} which cannot be imported`);
      url = next.toString();
      continue;
    }
    const answer = `${status} ${res.statusMessage ?? ""}`.trim();
    if (status >= 500 || status === 408 || status === 429) throw new Error(`the source URL answered ${answer}`);
    throw new SourceRejected(`the source URL answered ${answer}`);
  }
  throw new SourceRejected(`the source URL redirects more than ${MAX_REDIRECTS} times`);
}

/** Errors that retrying cannot fix become SourceRejected with a plain message. */
function explain(err: unknown, url: string): Error {
  const host = new URL(url).host;
  // Without the port: a refused address must read the same whichever port was asked.
  if (err instanceof PrivateAddressError) return new SourceRejected(`${new URL(url).hostname} is a private address, which cannot be imported from`);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new SourceRejected(`${host} could not be found (DNS)`);
  if (code === "ECONNREFUSED") return new SourceRejected(`${host} refused the connection`);
  if (code === "CERT_HAS_EXPIRED" || code?.startsWith("ERR_TLS") || code?.includes("CERT")) {
    return new SourceRejected(`${host}'s TLS certificate is not valid (${code})`);
  }
  return err instanceof Error ? err : new Error(String(err));
}
