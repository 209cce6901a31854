import { z } from "zod";

/** Where encoders publish (Livepeer's /api/ingest shape): one entry per media node taking broadcasts (lib/live/ingest-urls.ts). */
export const Ingest = z
  .object({
    base: z.string().describe("the app's origin"),
    ingest: z.string().describe("RTMP server URL for encoders (OBS: Server); the stream key goes after it"),
    playback: z.string().describe("base of HLS playback URLs"),
  })
  .meta({ id: "Ingest" });
export type Ingest = z.infer<typeof Ingest>;
