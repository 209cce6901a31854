import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { capped } from "@/lib/bounded-body";
import { config } from "@/lib/config";
import { objects } from "@/lib/storage";
import { updateTask } from "@/lib/tasks/service";
import { sourceKey } from "../keys";
import { updateAsset } from "../service";
import { hashList, Hasher, type Digest } from "./hashing";

/**
 * The pipeline's first step, the one every source passes (an upload, an import's download,
 * a recording, a clip): its bytes into the store. Apart from pipeline.ts so that what
 * receives uploads does not reach ffmpeg.
 */

/** Streams a source file into the store under the asset, hashing it as it passes; past MAX_UPLOAD_BYTES it fails with BodyTooLarge. */
export async function storeSource(assetId: string, body: Readable): Promise<Digest> {
  const hasher = new Hasher();
  const limited = (source: AsyncIterable<Uint8Array>) => capped(source, config().MAX_UPLOAD_BYTES, "the file");
  await Promise.all([pipeline(body, limited, hasher), objects().write(sourceKey(assetId), hasher)]);
  const digest = hasher.digest();
  await updateAsset(assetId, { size: digest.size, hash: hashList(digest), files: { source: sourceKey(assetId) } });
  return digest;
}

/** A source that arrived: the asset starts processing and its task shows it. */
export async function sourceArrived(assetId: string, taskId: string | undefined, progress: number) {
  await updateAsset(assetId, { phase: "processing", progress, errorMessage: null });
  if (taskId) await updateTask(taskId, { phase: "running", progress });
}
