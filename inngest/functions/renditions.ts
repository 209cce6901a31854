import { failRendition, settleTranscode } from "@/lib/assets/renditions";
import { publishRendition, storeStaticMp4, transcodeChunk } from "@/lib/assets/transcode";
import { inngest } from "../client";
import { renditionChunkRequested } from "../events";

/**
 * One chunk of one rendition of an asset's ladder: any job worker on any machine
 * takes it (lib/assets/renditions.ts queued one per chunk). Its result is stored as
 * soon as it is done, so a worker killed mid-ladder costs only the chunks it was
 * doing. Whichever job finishes a rendition's last chunk publishes it (its playlist;
 * its static MP4 when asked), and the master playlist lists it from then on.
 */
export const transcodeRenditionChunk = inngest.createFunction(
  {
    id: "asset-rendition-chunk",
    triggers: [renditionChunkRequested],
    retries: 2,
    // A chunk that keeps failing fails its rendition alone: the asset stays playable.
    onFailure: async ({ event, error }) => {
      const { assetId, rendition } = event.data.event.data;
      await failRendition(assetId, rendition, `transcoding failed: ${error.message ?? "unknown error"}`);
    },
  },
  async ({ event, step }) => {
    const job = event.data;
    const chunk = await step.run("transcode the chunk", () => transcodeChunk(job));
    if (!chunk.renditionDone) return chunk;
    const { mp4 } = await step.run("publish the rendition", () => publishRendition(job.assetId, job.rendition));
    if (mp4) await step.run("make the static MP4", () => storeStaticMp4(job.assetId, job.rendition));
    await step.run("announce it", () => settleTranscode(job.assetId, job.rendition));
    return { published: job.rendition };
  },
);
