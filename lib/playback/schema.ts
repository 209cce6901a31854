import { z } from "zod";

export const PlaybackSource = z
  .object({
    hrn: z.string().describe('"HLS (TS)", "MP4" or "Thumbnail (JPEG)" (live streams, while live)'),
    type: z.string().describe("html5/application/vnd.apple.mpegurl, html5/video/mp4 or image/jpeg"),
    url: z.string(),
  })
  .meta({ id: "PlaybackSource" });
export type PlaybackSource = z.infer<typeof PlaybackSource>;

/** What a player asks before it plays (Livepeer's playback-info shape): live streams, recordings, assets. */
export const PlaybackInfo = z
  .object({
    type: z.enum(["live", "vod", "recording"]),
    meta: z.object({ live: z.union([z.literal(0), z.literal(1)]).optional(), source: z.array(PlaybackSource).optional() }),
  })
  .meta({ id: "PlaybackInfo" });
export type PlaybackInfo = z.infer<typeof PlaybackInfo>;
export type PlaybackType = PlaybackInfo["type"];
