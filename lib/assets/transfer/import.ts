import { BodyTooLarge } from "@/lib/bounded-body";
import { config } from "@/lib/config";
import { FetchFailed, openUserUrl } from "@/lib/net/download";
import { updateTask } from "@/lib/tasks/service";
import { sourceArrived, storeSource } from "../processing/store-source";
import { metered } from "./progress";
import { updateAsset } from "../service";

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
  const res = await openSource(url);
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
    if (err instanceof BodyTooLarge) throw new SourceRejected(`the file at the URL is over the limit of ${limit} bytes`);
    throw err;
  }
  if (total && digest.size < total) throw new Error(`the download ended after ${digest.size} of ${total} bytes`);
}

/** The source's response; what retrying cannot fix is SourceRejected, the rest throws for the job to retry. */
async function openSource(url: string) {
  try {
    return await openUserUrl(url, { timeoutMs: IDLE_TIMEOUT_MS, userAgent: "Castline importer" });
  } catch (err) {
    if (err instanceof FetchFailed && !err.retriable) throw new SourceRejected(err.message);
    throw err;
  }
}
