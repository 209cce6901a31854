import { whileAssetExists } from "@/lib/assets/cancel";
import { failAsset } from "@/lib/assets/processing/pipeline";
import { makeClip } from "@/lib/clips/make";
import { inngest } from "@/lib/jobs/client";
import { clipRequested } from "@/lib/jobs/events";

/**
 * POST /clip: cut the range (smart cut: only the partial GOPs at its edges are
 * re-encoded) into the clip asset's source; the asset pipeline then makes it
 * playable as for an upload, and completes the clip task when the asset is ready.
 */
export const makeClipAsset = inngest.createFunction(
  {
    id: "clip-make",
    triggers: [clipRequested],
    retries: 2,
    onFailure: async ({ event, error }) => {
      const { assetId, taskId } = event.data.event.data;
      await failAsset(assetId, taskId, `Clipping failed: ${error.message ?? "unknown error"}`);
    },
  },
  async ({ event, step }) => {
    const { assetId, taskId } = event.data;
    const outcome = await step.run("cut the clip", () => whileAssetExists(assetId, () => makeClip(assetId, taskId)));
    if (!outcome.ok) await step.run("fail the clip", () => failAsset(assetId, taskId, `Clipping failed: ${outcome.reason}`));
    return outcome;
  },
);
