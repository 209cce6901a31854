import { failRendition, renditionsClaimedBy, settleTranscode } from "@/lib/assets/processing/renditions";
import { whileAssetExists } from "@/lib/assets/cancel";
import { publishRendition, storeStaticMp4, transcodeChunk } from "@/lib/assets/processing/transcode";
import { inngest } from "@/lib/jobs/client";
import { renditionChunkRequested } from "@/lib/jobs/events";

/**
 * One chunk of one rendition of an asset's ladder: any job worker on any machine
 * takes it (lib/assets/processing/renditions.ts queued one per chunk), with the chunk's other
 * renditions no job has taken yet, all from one decode. Its result is stored as
 * soon as it is done, so a worker killed mid-ladder costs only the chunks it was
 * doing. Whichever job finishes a rendition's last chunk publishes it (its playlist;
 * its static MP4 when asked), and the master playlist lists it from then on.
 */
export const transcodeRenditionChunk = inngest.createFunction(
  {
    id: "asset-rendition-chunk",
    triggers: [renditionChunkRequested],
    retries: 2,
    // A chunk that keeps failing fails the renditions it was encoding; the asset stays playable.
    onFailure: async ({ event, error }) => {
      const failed = event.data.event;
      for (const rendition of await renditionsClaimedBy(failed.data, failed.id!)) {
        await failRendition(failed.data.assetId, rendition, `transcoding failed: ${error.message ?? "unknown error"}`);
      }
    },
  },
  async ({ event, step }) => {
    const job = event.data;
    // The event id names this job in the chunk's claim: a retry takes back what it had.
    const chunk = await step.run("transcode the chunk", () => whileAssetExists(job.assetId, () => transcodeChunk(job, event.id!)));
    for (const rendition of chunk.completed) {
      const { mp4 } = await step.run(`publish ${rendition}`, () => whileAssetExists(job.assetId, () => publishRendition(job.assetId, rendition)));
      if (mp4) await step.run(`make the static MP4 of ${rendition}`, () => whileAssetExists(job.assetId, () => storeStaticMp4(job.assetId, rendition)));
      await step.run(`announce ${rendition}`, () => settleTranscode(job.assetId, rendition));
    }
    return chunk;
  },
);
