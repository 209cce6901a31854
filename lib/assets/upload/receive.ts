import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { tasks } from "@/db/schema";
import { config } from "@/lib/config";
import { BodyTooLarge } from "@/lib/bounded-body";
import { forbidden, invalid } from "@/lib/errors";
import { assetSourceStored } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { updateTask } from "@/lib/tasks/service";
import { storeSource } from "../processing/store-source";
import type { Asset } from "../schema";
import { assetById, serializeAsset } from "../service";
import { claimForUpload, finishUpload, releaseUpload, UploadLease } from "./lease";
import { tusUploads } from "./tus-store";
import { verifyUploadToken } from "./token";

/** The import task that request-upload made with the asset. */
export async function uploadTaskOf(assetId: string): Promise<string | undefined> {
  const task = await db().query.tasks.findFirst({ where: and(eq(tasks.outputAssetId, assetId), eq(tasks.type, "import")) });
  return task?.id;
}

/**
 * The body of an upload (PUT to the pre-signed URL, or a finished tus upload)
 * for the asset its claim holds: streamed into the store with its hashes while
 * the claim is kept, then processing starts. An upload that breaks off frees
 * the asset for another try with the same URL.
 */
export async function receiveUpload(assetId: string, claim: string, body: ReadableStream<Uint8Array>): Promise<void> {
  const lease = new UploadLease(assetId, claim);
  try {
    await storeSource(assetId, Readable.from(lease.watch(body), { objectMode: false }));
  } catch (err) {
    await releaseUpload(assetId, claim);
    // Over the limit: BodyTooLarge, a 413. The store may fail first ("premature close"): the lease knows why.
    throw lease.failure ?? err;
  }
  await startProcessing(assetId, claim);
}

/**
 * A PUT to the pre-signed URL: the token is the permission (one asset, until it expires
 * or an upload completes); the body streams to storage. Answers the asset as it then is.
 */
export async function receiveSignedUpload(token: string | null, declaredBytes: number, body: ReadableStream<Uint8Array> | null): Promise<Asset> {
  const check = verifyUploadToken(token);
  if (!check.ok) throw forbidden(check.reason);
  const limit = config().MAX_UPLOAD_BYTES;
  if (declaredBytes > limit) throw new BodyTooLarge("the file", limit);
  if (!body) throw invalid("the request has no body: PUT the file as the body");
  const claim = await claimForUpload(check.assetId);
  await receiveUpload(check.assetId, claim, body);
  return serializeAsset((await assetById(check.assetId))!);
}

/** A finished tus upload: its file goes to the asset's storage, and its parts go. */
export async function receiveTusUpload(assetId: string, uploadId: string): Promise<void> {
  const file = Readable.toWeb(await tusUploads().read(uploadId)) as ReadableStream<Uint8Array>;
  await receiveUpload(assetId, uploadId, file);
  await tusUploads().remove(uploadId);
}

/** The file is in the store: processing starts, and the claim gives way to it. */
export async function startProcessing(assetId: string, claim: string): Promise<void> {
  const taskId = await uploadTaskOf(assetId);
  // The event first, with an id of its own: once it is stored, the file is processed even if this process dies now.
  await emit(assetSourceStored, { assetId, taskId }, { id: `${assetSourceStored.name}:${assetId}` });
  if ((await finishUpload(assetId, claim, 0.1)) && taskId) await updateTask(taskId, { phase: "running", progress: 0.1 });
}
