import { z } from "zod";
import { PlaybackPolicy } from "@/lib/access/schema";

export const PlaybackSource = z
  .object({
    hrn: z
      .string()
      .describe(
        '"HLS (TS)", "MP4", "Thumbnails" (a WebVTT seek-preview track) or "Thumbnail (JPEG)" (an asset\'s poster; a live stream\'s latest frame, while live)',
      ),
    type: z.string().describe("html5/application/vnd.apple.mpegurl, html5/video/mp4, text/vtt or image/jpeg"),
    url: z.string(),
    size: z.number().optional().describe("bytes (MP4 renditions)"),
    width: z.number().optional(),
    height: z.number().optional(),
    bitrate: z.number().optional().describe("bits per second (MP4 renditions)"),
  })
  .meta({ id: "PlaybackSource" });
export type PlaybackSource = z.infer<typeof PlaybackSource>;

/** A recording of a stream's broadcast (Livepeer's meta.dvrPlayback entry): HLS. */
export const DvrPlayback = z
  .object({
    hrn: z.literal("HLS (TS)"),
    type: z.literal("html5/application/vnd.apple.mpegurl"),
    url: z.string(),
  })
  .meta({ id: "DvrPlayback" });
export type DvrPlayback = z.infer<typeof DvrPlayback>;

/** What a player asks before it plays (Livepeer's playback-info shape): live streams, recordings, assets. */
export const PlaybackInfo = z
  .object({
    type: z.enum(["live", "vod", "recording"]),
    meta: z.object({
      live: z.union([z.literal(0), z.literal(1)]).optional(),
      source: z.array(PlaybackSource).optional(),
      playbackPolicy: PlaybackPolicy.optional().describe("who may watch, when not public to anyone with the playback id"),
      dvrPlayback: z
        .array(DvrPlayback)
        .optional()
        .describe(
          "a stream's: the recording of its latest broadcast, when it has one this viewer may watch (its recording's playback policy admits them): while the broadcast is on or its reconnect window is open, the session's recording playlist (the whole broadcast so far; it ends with #EXT-X-ENDLIST once the encoder stopped); once the recording's asset plays, the asset's HLS",
        ),
    }),
  })
  .meta({ id: "PlaybackInfo" });
export type PlaybackInfo = z.infer<typeof PlaybackInfo>;
export type PlaybackType = PlaybackInfo["type"];
