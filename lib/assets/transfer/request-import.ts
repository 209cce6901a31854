import { checkPlaybackPolicy } from "@/lib/access/policy";
import { invalid } from "@/lib/errors";
import { assetImportRequested } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { privateHostReason } from "@/lib/net/guard";
import { withoutCredentials } from "@/lib/net/http-url";
import { seal } from "@/lib/secrets";
import { serializeTask, spawnTask } from "@/lib/tasks/service";
import type { ImportAsset } from "../schema";
import { createAsset, serializeAsset } from "../service";

/** POST /asset/import: the asset and its task at once; the download runs in the background. */
export async function importAsset(userId: string, body: ImportAsset) {
  const refused = await privateHostReason(body.url);
  if (refused) throw invalid(`url: refusing to import from ${refused}`);
  const shown = withoutCredentials(body.url);
  const asset = await createAsset(userId, {
    name: body.name,
    source: { type: "url", url: shown },
    phase: "waiting",
    transcode: { profiles: body.profiles, staticMp4: body.staticMp4 },
    playbackPolicy: await checkPlaybackPolicy(userId, body.playbackPolicy),
  });
  const task = await spawnTask({ userId, type: "import", outputAssetId: asset.id, params: { import: { url: shown } } });
  await emit(assetImportRequested, { assetId: asset.id, taskId: task.id, sealedUrl: seal(body.url) });
  return { asset: serializeAsset(asset), task: serializeTask(task) };
}
