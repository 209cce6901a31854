import { checkPlaybackPolicy } from "@/lib/access/policy";
import { config } from "@/lib/config";
import { assetUploadAwaited } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { publicOrigin } from "@/lib/origin";
import { objects } from "@/lib/storage";
import { serializeTask, spawnTask } from "@/lib/tasks/service";
import { sourceKey } from "../keys";
import type { RequestUpload } from "../schema";
import { createAsset, serializeAsset } from "../service";
import { signUploadToken } from "./token";

/**
 * POST /asset/request-upload: a waiting asset, its import task, and where to send
 * the file: a URL pre-signed by the object store (S3) or by the app (local disk),
 * and a tus endpoint for resumable uploads.
 */
export async function requestUpload(userId: string, { name, profiles, staticMp4, playbackPolicy }: RequestUpload) {
  const ttl = config().UPLOAD_URL_TTL_S;
  const asset = await createAsset(userId, {
    name,
    source: { type: "directUpload" },
    phase: "waiting",
    transcode: { profiles, staticMp4 },
    playbackPolicy: await checkPlaybackPolicy(userId, playbackPolicy),
  });
  const key = sourceKey(asset.id);
  const task = await spawnTask({ userId, type: "import", outputAssetId: asset.id, params: { import: { uploadedObjectKey: key } } });
  const token = signUploadToken(asset.id, ttl);
  const storeUrl = await objects().presignedPut(key, ttl);
  // Nothing tells the app when a PUT straight to the store completes: a job watches for the object.
  if (storeUrl) await emit(assetUploadAwaited, { assetId: asset.id, taskId: task.id, expiresAt: Date.now() + ttl * 1000 });
  const origin = publicOrigin();
  return {
    url: storeUrl ?? `${origin}/api/asset/upload/direct?token=${token}`,
    tusEndpoint: `${origin}/api/asset/upload/tus?token=${token}`,
    asset: serializeAsset(asset),
    task: serializeTask(task),
  };
}
