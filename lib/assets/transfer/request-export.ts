import { compact } from "@/lib/compact";
import { invalid } from "@/lib/errors";
import { assetExportRequested } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { privateHostReason } from "@/lib/net/guard";
import { withoutCredentials } from "@/lib/net/http-url";
import { seal } from "@/lib/secrets";
import { serializeTask, spawnTask } from "@/lib/tasks/service";
import type { ExportAsset } from "../schema";
import { ownAsset } from "../service";
import { ipfsExportRefusal } from "./ipfs-export";

/**
 * POST /asset/{id}/export. Credentials (pinning keys, custom headers, the URL's
 * userinfo and query) travel sealed with the job only; the task shows what was asked,
 * never the secrets.
 */
export async function exportAsset(userId: string, assetId: string, body: ExportAsset) {
  const asset = await ownAsset(userId, assetId);
  if (asset.phase !== "ready") throw invalid(`asset is not ready to export (phase: ${asset.phase})`);
  const gated = body.ipfs && ipfsExportRefusal(asset.playbackPolicy);
  if (gated) throw invalid(`ipfs: ${gated}`);
  if (body.custom) {
    const refused = await privateHostReason(body.custom.url);
    if (refused) throw invalid(`custom.url: refusing to export to ${refused}`);
  }
  const shown = body.ipfs
    ? { ipfs: compact({ nftMetadata: body.ipfs.nftMetadata, pinning: body.ipfs.pinning ? { configured: true } : undefined }) }
    : { custom: { url: withoutCredentials(body.custom!.url), method: body.custom!.method } };
  const task = await spawnTask({ userId, type: "export", inputAssetId: asset.id, params: { export: shown } });
  await emit(assetExportRequested, { taskId: task.id, assetId: asset.id, sealedExport: seal(body) });
  return { task: serializeTask(task) };
}
