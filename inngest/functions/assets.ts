import { exportToIpfs, exportToUrl, type ExportRequest } from "@/lib/assets/transfer/export";
import { downloadSource, SourceRejected } from "@/lib/assets/transfer/import";
import { whileAssetExists } from "@/lib/assets/cancel";
import { failAsset, inspectSource, makePlayable } from "@/lib/assets/processing/pipeline";
import { startRenditions } from "@/lib/assets/processing/renditions";
import { transcodeSource } from "@/lib/assets/processing/source-transcode";
import { removePurgedFiles } from "@/lib/assets/service";
import { storeSeekThumbnails } from "@/lib/assets/processing/transcode";
import { claimUpload } from "@/lib/assets/upload/lease";
import { watchForUpload } from "@/lib/assets/upload/presigned-put";
import { startProcessing } from "@/lib/assets/upload/receive";
import { newId } from "@/lib/ids";
import { unseal } from "@/lib/secrets";
import { updateTask } from "@/lib/tasks/service";
import { inngest } from "@/lib/jobs/client";
import { assetExportRequested, assetImportRequested, assetPurged, assetSourceStored, assetUploadAwaited } from "@/lib/jobs/events";

type AssetJob = { assetId: string; taskId?: string };
type Step = Parameters<Parameters<typeof inngest.createFunction>[1]>[0]["step"];

/** What the user sees when a job gave up after its retries. */
const gaveUp = (what: string, error: { message?: string }) => `${what} failed: ${error.message ?? "unknown error"}`;

/** Inspect, transcode what browsers cannot play, then make playable: the same steps for uploads, imports and recordings. */
export async function playableSteps(step: Step, { assetId, taskId }: AssetJob, inspectedAt: number) {
  const inspection = await step.run("inspect the source", () => whileAssetExists(assetId, () => inspectSource(assetId, taskId, inspectedAt)));
  if (!inspection.ok) {
    await step.run("reject the source", () => failAsset(assetId, taskId, inspection.reason));
    return { ready: false as const, reason: inspection.reason };
  }
  // (A run inspected before plans existed has none: its source was H.264/AAC MP4.)
  if (inspection.plan?.transcodeBecause.length) {
    await step.run("transcode to H.264", () => whileAssetExists(assetId, () => transcodeSource(assetId, taskId, inspection.plan, inspectedAt)));
  }
  await step.run("make it playable", () => whileAssetExists(assetId, () => makePlayable(assetId, taskId)));
  return { ready: true as const };
}

/** Once playable: the ABR ladder is made by chunk jobs on every worker, the seek previews here meanwhile. */
export async function ladderSteps(step: Step, assetId: string) {
  const chunks = await step.run("start the renditions", () => whileAssetExists(assetId, () => startRenditions(assetId)));
  await step.run("make the seek thumbnails", () => whileAssetExists(assetId, () => storeSeekThumbnails(assetId)));
  return chunks;
}

async function processSteps(step: Step, job: AssetJob, inspectedAt: number) {
  const playable = await playableSteps(step, job, inspectedAt);
  if (!playable.ready) return playable;
  return { ready: true, chunks: await ladderSteps(step, job.assetId) };
}

/** A source is in the store (an upload, a clip): make it an asset. Recordings go through the same steps in recording-finalize. */
export const processAsset = inngest.createFunction(
  {
    id: "asset-process",
    triggers: [assetSourceStored],
    retries: 2,
    onFailure: async ({ event, error }) => {
      const job = event.data.event.data;
      await failAsset(job.assetId, job.taskId, gaveUp("Processing", error));
    },
  },
  async ({ event, step }) => processSteps(step, event.data, 0.5),
);

/** POST /asset/import: download the source, then the same processing as an upload. */
export const importAsset = inngest.createFunction(
  {
    id: "asset-import",
    triggers: [assetImportRequested],
    retries: 2,
    onFailure: async ({ event, error }) => {
      const job = event.data.event.data;
      await failAsset(job.assetId, job.taskId, gaveUp("Import", error));
    },
  },
  async ({ event, step }) => {
    const job = event.data;
    const download = await step.run("download the source", () =>
      whileAssetExists(job.assetId, async () => {
        try {
          await downloadSource(job.assetId, job.taskId, unseal<string>(job.sealedUrl), 0.5);
          return { ok: true as const };
        } catch (err) {
          if (err instanceof SourceRejected) return { ok: false as const, reason: `Import failed: ${err.message}` };
          throw err;
        }
      }),
    );
    if (!download.ok) {
      await step.run("reject the source", () => failAsset(job.assetId, job.taskId, download.reason));
      return { ready: false, reason: download.reason };
    }
    return processSteps(step, job, 0.7);
  },
);

/** Looks once a second for the first half hour, then every ten minutes until the URL expires. */
const DENSE_ROUNDS = 6;
const DENSE_ROUND_MS = 5 * 60_000;

/** An upload URL pre-signed by S3: nothing calls the app when the PUT completes, so watch for the object. */
export const awaitUpload = inngest.createFunction({ id: "asset-await-upload", triggers: [assetUploadAwaited], retries: 2 }, async ({ event, step }) => {
  const { assetId, expiresAt } = event.data;
  for (let round = 0; ; round++) {
    const dense = round < DENSE_ROUNDS;
    const seen = await step.run(`look for the upload ${round + 1}`, () => watchForUpload(assetId, expiresAt, dense ? DENSE_ROUND_MS : 0));
    if (seen === "arrived") break;
    if (seen !== "waiting") return { upload: seen };
    if (!dense) await step.sleep(`wait ${round + 1}`, "10m");
  }
  await step.run("start processing", async () => {
    const claim = newId();
    if (await claimUpload(assetId, claim)) await startProcessing(assetId, claim);
  });
  return { upload: "arrived" };
});

/** POST /asset/{id}/export: to IPFS (our blockstore, optionally pinned) or to a custom URL. */
export const exportAsset = inngest.createFunction(
  {
    id: "asset-export",
    triggers: [assetExportRequested],
    retries: 3,
    onFailure: async ({ event, error }) => {
      const { taskId } = event.data.event.data;
      await updateTask(taskId, { phase: "failed", errorMessage: gaveUp("Export", error) });
    },
  },
  async ({ event, step }) => {
    const { taskId, assetId, sealedExport } = event.data;
    // Opened on each call and never returned from a step: step results are stored.
    const job: ExportRequest = { taskId, assetId, export: unseal(sealedExport) };
    await step.run("start", () => updateTask(job.taskId, { phase: "running", progress: 0 }));
    const result = await step.run(job.export.custom ? "send to the URL" : "export to IPFS", () =>
      whileAssetExists(assetId, () => (job.export.custom ? exportToUrl(job) : exportToIpfs(job))),
    );
    if (!result.ok) await step.run("fail the task", () => updateTask(job.taskId, { phase: "failed", errorMessage: result.reason }));
    return result;
  },
);

/**
 * A takedown: the asset's files go at once. Its jobs, called off, remove what they were still
 * writing as they stop (lib/assets/cancel.ts), within seconds; two later passes catch what a job
 * that finished its last step meanwhile, or a worker that died, left.
 */
export const purgeAsset = inngest.createFunction({ id: "asset-purge", triggers: [assetPurged], retries: 4 }, async ({ event, step }) => {
  await step.run("remove the files", () => removePurgedFiles(event.data.assetId));
  await step.sleep("let its jobs stop", "10s");
  await step.run("remove what its jobs left", () => removePurgedFiles(event.data.assetId));
  await step.sleep("let a stalled job's lease lapse", "1m");
  await step.run("remove what a stalled job left", () => removePurgedFiles(event.data.assetId));
});
