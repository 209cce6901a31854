import type { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { tasks } from "@/db/schema";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { emit } from "@/lib/jobs/emit";
import { objects } from "@/lib/storage";
import { ASSET_SOURCE_STORED } from "./events";
import { TooLargeError } from "./hashing";
import { sourceKey } from "./keys";
import { sourceArrived, storeSource } from "./pipeline";
import { assetById, claimUpload, releaseUpload, type AssetRow } from "./service";

/** The import task that request-upload made with the asset. */
export async function uploadTaskOf(assetId: string): Promise<string | undefined> {
  const task = await db().query.tasks.findFirst({ where: and(eq(tasks.outputAssetId, assetId), eq(tasks.type, "import")) });
  return task?.id;
}

/** Claims the asset for an upload, or says clearly why it cannot take one. */
export async function claimForUpload(assetId: string): Promise<AssetRow> {
  const claimed = await claimUpload(assetId);
  if (claimed) return claimed;
  const asset = await assetById(assetId);
  if (!asset || asset.deletedAt) throw new ApiError(404, ["asset not found"]);
  const why = asset.phase === "uploading" ? "an upload to this asset is already in progress" : `this asset already has its file (phase: ${asset.phase})`;
  throw new ApiError(409, [why]);
}

/**
 * The body of an upload (PUT to the pre-signed URL, or a finished tus upload)
 * for a claimed asset: streamed into the store with its hashes, then processing
 * starts. A broken-off upload frees the asset for another try.
 */
export async function receiveUpload(assetId: string, body: Readable): Promise<void> {
  try {
    await storeSource(assetId, body);
  } catch (err) {
    await releaseUpload(assetId);
    if (err instanceof TooLargeError) throw new ApiError(413, [`the file is larger than the limit of ${config().MAX_UPLOAD_BYTES} bytes`]);
    throw err;
  }
  await startProcessing(assetId);
}

export async function startProcessing(assetId: string): Promise<void> {
  const taskId = await uploadTaskOf(assetId);
  await sourceArrived(assetId, taskId, 0.1);
  await emit({ name: ASSET_SOURCE_STORED, data: { assetId, taskId } });
}

const POLL_MS = 1000;

export type UploadWatch = "arrived" | "waiting" | "expired" | "gone";

/**
 * For uploads PUT straight to S3: whether the object has arrived, looking once a
 * second for `forMs`. An S3 PUT is atomic, so an object that exists is complete.
 */
export async function watchForUpload(assetId: string, expiresAt: number, forMs: number): Promise<UploadWatch> {
  const until = Date.now() + forMs;
  for (;;) {
    const asset = await assetById(assetId);
    // Deleted, or the file came through the app's own URLs (tus) instead.
    if (!asset || asset.deletedAt || asset.phase !== "waiting") return "gone";
    if (await objects().stat(sourceKey(assetId))) return "arrived";
    if (Date.now() > expiresAt) return "expired";
    if (Date.now() >= until) return "waiting";
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
